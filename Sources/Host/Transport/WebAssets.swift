/// The phone page's files, embedded in the host binary: SwiftPM's `resources: [.embedInCode("Web")]` on the Host
/// target turns each file of `Sources/Host/Web/` into a `PackageResources` byte array (`mode-shaky.js` →
/// `mode_shaky_js`), so the host reads no file system to serve them.
enum WebAssets {
    /// Every file of `Sources/Host/Web/` by name. A file added there must be listed here too (SwiftPM lists no
    /// names); the end-to-end tests fetch every file of that folder and fail on one that is missing.
    static let files: [String: [UInt8]] = [
        "app.js": PackageResources.app_js,
        "clock.js": PackageResources.clock_js,
        "delta.js": PackageResources.delta_js,
        "edit.css": PackageResources.edit_css,
        "edit.html": PackageResources.edit_html,
        "editor.js": PackageResources.editor_js,
        "index.html": PackageResources.index_html,
        "mode-fly.js": PackageResources.mode_fly_js,
        "mode-hunt.js": PackageResources.mode_hunt_js,
        "mode-outsider.js": PackageResources.mode_outsider_js,
        "mode-queen.js": PackageResources.mode_queen_js,
        "mode-shaky.js": PackageResources.mode_shaky_js,
        "mode-words.js": PackageResources.mode_words_js,
        "rewards.css": PackageResources.rewards_css,
        "rewards.js": PackageResources.rewards_js,
        "sound.js": PackageResources.sound_js,
        "style.css": PackageResources.style_css,
        "ui.js": PackageResources.ui_js,
    ]

    /// The names served, each at `/<name>`.
    static let names = Set(files.keys)

    /// The page every page route (`/`, `/ROOM`, `/board`) answers with.
    static let page = "index.html"

    /// The `Content-Security-Policy` of every HTML answer: nothing inline, nothing from another origin.
    static let contentSecurityPolicy =
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
        + "media-src 'self' blob: data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"

    /// The `Content-Type` of a file, by its extension.
    static func contentType(of name: String) -> String {
        if name.hasSuffix(".html") { return "text/html; charset=utf-8" }
        if name.hasSuffix(".css") { return "text/css; charset=utf-8" }
        if name.hasSuffix(".js") || name.hasSuffix(".mjs") { return "text/javascript; charset=utf-8" }
        if name.hasSuffix(".svg") { return "image/svg+xml" }
        if name.hasSuffix(".png") { return "image/png" }
        if name.hasSuffix(".json") { return "application/json" }
        if name.hasSuffix(".txt") { return "text/plain; charset=utf-8" }
        return "application/octet-stream"
    }
}
