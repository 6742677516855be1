import Foundation
import Protocol
import TestSupport

// The phone page's first render on loopback (issue #25's Performance section): headless Chromium at 390×844 with
// touch opens the room's URL in a fresh context each time; navigation start → the join form painted, a scripted
// join's tap → its welcome (the lobby drawn), and the bytes the page fetched. See BENCHMARKS.md.

/// Loads the phone page `loads` times from a fresh host and reports its first render.
struct PageRenderRun {
    let context: BenchContext

    /// Installed in every new document before the page's own scripts: stamps (on the page's clock, whose zero is
    /// the navigation's start) the frame that paints the join form, the join's submit and the lobby after welcome.
    static let probe = """
        (() => {
          const marks = (window.__benchMarks = {});
          const frame = (name) => requestAnimationFrame((t) => { marks[name] ??= t; });
          document.addEventListener('submit', () => { marks.submit ??= performance.now(); }, true);
          new MutationObserver(() => {
            if (marks.form == null && !marks.formSeen && document.getElementById('name')) {
              marks.formSeen = true;
              frame('form');
            }
            const lobby = document.querySelector('[data-screen="lobby"]');
            if (marks.lobby == null && !marks.lobbySeen && lobby && !lobby.hidden) {
              marks.lobbySeen = true;
              marks.welcome = performance.now();
              frame('lobby');
            }
          }).observe(document, { childList: true, subtree: true, attributes: true, attributeFilter: ['hidden'] });
        })();
        """

    /// What the page fetched: the document and every resource, as transferred (headers included).
    static let bytes = """
        [performance.getEntriesByType('navigation')[0], ...performance.getEntriesByType('resource')]
          .reduce((sum, e) => sum + (e.transferSize || 0), 0)
        """

    /// How many loads: a few in a quick run.
    var loads: Int { context.options.isQuick ? 3 : 20 }

    /// Runs the section into `report`: the figures, or a line saying it was skipped (no Chromium) or failed.
    func run(report: Report) {
        context.say("page: the phone page's first render (\(loads) loads, headless Chromium at 390×844)")
        guard Browser.isAvailable else {
            let reason = "skipped: \(Browser.unavailableReason)"
            context.say("page: \(reason)")
            report.add(TableRow(measure: "Phone page first render", value: reason))
            report.sections["page"] = .object(["skipped": .string(reason)])
            return
        }
        do {
            report.sections["page"] = try measure(report: report)
        } catch {
            report.problems.append("page: \(error)")
            context.say("page: failed: \(error)")
        }
    }

    /// Loads the page `loads` times from a fresh host, adds the table's rows and returns the JSON section.
    private func measure(report: Report) throws -> JSONValue {
        let host = try context.startHost(maxClients: 100)
        defer { _ = host.stop() }
        guard let browser = try Browser.launch() else { throw BenchError(Browser.unavailableReason) }
        defer { browser.close() }
        let url = "http://127.0.0.1:\(host.port)/\(host.room)"
        var form: [Double] = []
        var welcome: [Double] = []
        var bytes: [Double] = []
        for index in 0..<loads {
            let page = try browser.newPage(width: 390, height: 844, touch: true)
            defer { page.close() }
            _ = try page.send("Page.addScriptToEvaluateOnNewDocument", ["source": .string(Self.probe)])
            try page.navigate(url)
            let painted = try page.waitFor("window.__benchMarks?.form", timeout: 30, "the join form painted")
            try page.type("Bench\(index)", into: "#name")
            try page.type("Team\(index % 4)", into: "#team")
            try page.tap(selector: "button[type=submit]")
            let joined = try page.waitFor(
                "window.__benchMarks?.lobby != null && window.__benchMarks.submit != null"
                    + " && (window.__benchMarks.welcome - window.__benchMarks.submit)", timeout: 30, "the welcome")
            let fetched = try page.evaluate(Self.bytes)
            form.append(painted.doubleValue ?? 0)
            welcome.append(joined.doubleValue ?? 0)
            bytes.append(fetched.doubleValue ?? 0)
        }
        let formSummary = Summary(form)
        let welcomeSummary = Summary(welcome)
        let p95 = { (values: [Double]) in Summary.percentile(values.sorted(), 0.95) }
        let rows: [(String, [Double], Summary)] = [
            ("Phone page: navigation → join form painted", form, formSummary),
            ("Phone page: Join tap → welcome", welcome, welcomeSummary),
        ]
        for (measure, values, summary) in rows {
            report.add(
                TableRow(
                    measure: measure,
                    value: "p50 \(formatMilliseconds(summary.p50)) / p95 \(formatMilliseconds(p95(values))) / max "
                        + "\(formatMilliseconds(summary.max)) ms"))
        }
        let transferred = Summary(bytes)
        report.add(TableRow(measure: "Phone page: bytes fetched per load", value: "\(Int(transferred.max)) B"))
        return .object([
            "loads": .number(loads), "viewport": "390x844 touch",
            "formPaintedMs": formSummary.json, "formPaintedP95Ms": .double(rounded(p95(form))),
            "joinToWelcomeMs": welcomeSummary.json, "joinToWelcomeP95Ms": .double(rounded(p95(welcome))),
            "bytesPerLoad": .number(Int(transferred.max)),
        ])
    }
}
