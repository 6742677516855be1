import Foundation
import Rules

/// One kind of content the host keeps in its data folder, one file per custom item.
///
/// Quiz packs are the first kind; puzzle packs, word lists, dice boards and station hunts follow the same shape:
/// a `ContentLibrary` in Rules that holds the built-in items and applies the kind's rules (`add` is the one gate
/// for a whole item), plus this description of the kind's files.
protocol ContentKind {
    /// The library that holds the built-in items and applies the kind's rules.
    associatedtype Library: ContentLibrary

    /// The data folder's subfolder holding one file per custom item ("packs").
    static var folderName: String { get }
    /// What messages call one item ("quiz pack").
    static var noun: String { get }
    /// The formats files are read and written in, as lowercase extensions; the first is the data folder's own.
    static var formats: [String] { get }

    /// Reads an item from a file's bytes in `format`; `fileName` (without its folder) can name an item when the
    /// format carries no name. Errors start with the line at fault.
    static func decode(_ bytes: [UInt8], format: String, fileName: String) throws(RuleError) -> Library.Item
    /// The bytes of `item` as a file in `format`.
    static func encode(_ item: Library.Item, format: String) -> [UInt8]
    /// The refusal for an id the library does not hold.
    static func unknownItem(_ id: String) -> RuleError
}

extension ContentKind {
    /// The format of the data folder's files.
    static var storedFormat: String { formats[0] }

    /// The format a file is read or written in, by its extension (nil when the kind has no such format).
    static func format(ofFile path: String) -> String? {
        let suffix = (path as NSString).pathExtension.lowercased()
        return formats.contains(suffix) ? suffix : nil
    }
}

/// The custom items of one content kind, each in its own file of the data folder: loaded at start, saved
/// atomically one file per change, imported from and exported to files in the kind's formats.
///
/// Invariants: every custom item passed `Library.add` (files found at start included); a file is only ever
/// overwritten or removed by the store when it is the file the item was read from or written to. Any other file
/// in the way (one that could not be read at start, was refused, or appeared later) is first kept beside it as
/// `NAME.broken-<n>`, and the log says so. Files that cannot be loaded are reported by name and line and skipped.
final class ContentStore<Kind: ContentKind> {
    /// The folder holding the kind's files.
    let folder: String
    /// The built-in and custom items. Setting it saves nothing: call `save(id:)` for each changed item, or
    /// change it through `change(_:)`, which does both and undoes the change when saving fails.
    var library: Kind.Library
    /// What went wrong while loading, one sentence per file, for the operator.
    private(set) var problems: [String] = []
    private let log: Logger
    /// The file name each custom item was read from or last written to, by id.
    private var fileNames: [String: String] = [:]

    /// Opens `folder` (creating it when missing) and loads every file in the kind's stored format.
    init(folder: String, log: Logger) throws {
        self.folder = folder
        self.log = log
        library = Kind.Library()
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        load()
    }

    // MARK: Changing

    /// Applies `body` to a copy of the library and saves the item whose id it returns; when the rules or the
    /// disk refuse, nothing changes. Returns that id.
    ///
    /// `body` calls the library's own throwing methods (`try $0.createPack(named: name)`); it may throw any error
    /// so that closures need no annotation, but anything other than a `RuleError` is reported as a storage error.
    @discardableResult
    func change(_ body: (inout Kind.Library) throws -> String) throws(RuleError) -> String {
        var changed = library
        let id: String
        do {
            id = try body(&changed)
        } catch let error as RuleError {
            throw error
        } catch {
            throw RuleError(.storage, "\(error)")
        }
        guard !changed.isBuiltin(id: id) else {
            throw RuleError(
                .readOnly, "The built-in \(Kind.noun) \"\(id)\" cannot be changed; copy it to make your own.")
        }
        let previous = library
        library = changed
        do {
            try save(id: id)
        } catch {
            library = previous
            throw RuleError(.storage, "Could not save the \(Kind.noun) \"\(id)\": \(error). Nothing was changed.")
        }
        return id
    }

    /// Writes the custom item `id` to its file atomically, or removes its file when the library no longer holds it.
    /// Returns a sentence for whoever asked when a file the store had not read was kept as a backup first.
    @discardableResult
    func save(id: String) throws(StorageError) -> String? {
        guard !library.isBuiltin(id: id) else {
            throw StorageError("\"\(id)\" is a built-in \(Kind.noun); built-in items are not saved to files")
        }
        guard let item = library.item(id: id) else {
            if let name = fileNames[id] {
                do {
                    try FileManager.default.removeItem(atPath: folder + "/" + name)
                } catch {
                    throw StorageError("cannot remove \(folder)/\(name): \(error.localizedDescription)")
                }
                fileNames[id] = nil
            }
            return nil
        }
        let name = fileNames[id] ?? freeFileName(for: id)
        let path = folder + "/" + name
        let kept = fileNames[id] == nil ? try keepUnknownFile(at: path, before: id) : nil
        do {
            try Storage.writeAtomically(Kind.encode(item, format: Kind.storedFormat), to: path)
        } catch {
            throw error as? StorageError ?? StorageError("\(error)")
        }
        fileNames[id] = name
        return kept
    }

    /// Reads the file at `path` (by its extension), adds its item with the library's rules and saves it.
    /// Errors name the file, and the line for problems inside it.
    @discardableResult
    func importFile(_ path: String) throws(RuleError) -> Kind.Library.Item {
        guard let format = Kind.format(ofFile: path) else {
            let formats = Kind.formats.map { ".\($0)" }.joined(separator: " or ")
            throw RuleError(.badField, "\(path): \(Kind.noun) files end in \(formats).")
        }
        let data = try Self.readLimited(path)
        let item: Kind.Library.Item
        do throws(RuleError) {
            item = try Kind.decode(Array(data), format: format, fileName: (path as NSString).lastPathComponent)
        } catch {
            throw RuleError(error.code, "\(path): \(error.message)")
        }
        let id = try change { library in
            do throws(RuleError) {
                return try library.add(item)
            } catch {
                throw RuleError(error.code, "\(path): \(error.message)")
            }
        }
        return library.item(id: id) ?? item
    }

    /// Writes the item `id` (built in or custom) to `path` atomically, in the format its extension names
    /// (the stored format for any other extension).
    func export(id: String, to path: String) throws(RuleError) {
        guard let item = library.item(id: id) else { throw Kind.unknownItem(id) }
        let bytes = Kind.encode(item, format: Kind.format(ofFile: path) ?? Kind.storedFormat)
        do {
            try Storage.writeAtomically(bytes, to: path)
        } catch {
            throw RuleError(.storage, "Could not write \(path): \(error).")
        }
    }

    // MARK: Files

    /// The largest content file the host reads (4 MiB): the largest pack the rules allow (2,000 questions of 400
    /// characters) is about 1 MB as JSON, a hunt of 50 stations far less.
    static var maximumFileBytes: Int { 4 << 20 }

    /// The bytes of the regular file at `path`, refused by its size before anything is read (a 60 MB file, a
    /// device or a pipe would otherwise keep the host busy); at most `maximumFileBytes` are ever read.
    static func readLimited(_ path: String) throws(RuleError) -> [UInt8] {
        let attributes: [FileAttributeKey: Any]
        do {
            attributes = try FileManager.default.attributesOfItem(atPath: path)
        } catch {
            let reason = FileManager.default.fileExists(atPath: path) ? "it cannot be read" : "there is no such file"
            throw RuleError(.storage, "Could not read \(path): \(reason).")
        }
        guard attributes[.type] as? FileAttributeType == .typeRegular else {
            throw RuleError(.storage, "Could not read \(path): it is not a regular file.")
        }
        let size = (attributes[.size] as? NSNumber)?.int64Value ?? 0
        let limit = Int64(maximumFileBytes)
        func tooLarge(_ bytes: Int64) -> RuleError {
            let megabytes = String(format: "%.1f", Double(bytes) / 1_048_576)
            return RuleError(
                .storage,
                "\(path) is \(megabytes) MB; a \(Kind.noun) file may have at most \(limit >> 20) MB. "
                    + "Is it the right file?")
        }
        guard size <= limit else { throw tooLarge(size) }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw RuleError(.storage, "Could not read \(path): it cannot be read.")
        }
        defer { try? handle.close() }
        // The file may have grown since it was looked at: read one byte more than allowed to notice.
        let data = (try? handle.read(upToCount: maximumFileBytes + 1)) ?? Data()
        guard data.count <= maximumFileBytes else { throw tooLarge(Int64(data.count)) }
        return Array(data)
    }

    /// Loads every file in the stored format, in name order; files that fail are reported and left alone.
    private func load() {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
            .filter { !$0.hasPrefix(".") }
            .sorted()
        var library = Kind.Library()
        for name in names {
            let path = folder + "/" + name
            guard let format = Kind.format(ofFile: name) else { continue }
            guard format == Kind.storedFormat else {
                problems.append(
                    "The \(Kind.noun) file \(path) was not loaded: the data folder keeps \(Kind.noun)s as "
                        + ".\(Kind.storedFormat) files. Import it instead.")
                continue
            }
            let data: [UInt8]
            do throws(RuleError) {
                data = try Self.readLimited(path)
            } catch {
                problems.append("\(error.message) It was skipped and left as it is.")
                continue
            }
            do throws(RuleError) {
                let item = try Kind.decode(Array(data), format: format, fileName: name)
                let id = try library.add(item)
                fileNames[id] = name
            } catch {
                problems.append(
                    "The \(Kind.noun) file \(path) was skipped: \(error.message) "
                        + "Fix or remove the file; the host leaves it as it is.")
            }
        }
        self.library = library
    }

    /// A file name for a new item `id` that no other item's file uses: `<id>.<format>`, else `<id>-2.<format>`….
    private func freeFileName(for id: String) -> String {
        let taken = Set(fileNames.values)
        var name = "\(id).\(Kind.storedFormat)"
        var number = 1
        while taken.contains(name) {
            number += 1
            name = "\(id)-\(number).\(Kind.storedFormat)"
        }
        return name
    }

    /// Keeps a file at `path` that this store did not read (or no longer finds readable) as `NAME.broken-<n>`;
    /// returns a sentence saying so (also logged), or nil when there was no such file.
    private func keepUnknownFile(at path: String, before id: String) throws(StorageError) -> String? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        let kept = try Storage.setAside(path)
        log.warning(
            "The \(Kind.noun) file \(path) was not loaded when the host started, so before saving the "
                + "\(Kind.noun) \"\(id)\" there it was kept as \(kept).")
        return "The file \((path as NSString).lastPathComponent) it replaces could not be read, so it was kept as "
            + "\(kept)."
    }
}

/// Quiz packs: `packs/<id>.json` in the data folder, imported and exported as JSON or CSV (see `PackFile`).
enum QuizPacks: ContentKind {
    typealias Library = PackLibrary

    static let folderName = "packs"
    static let noun = "quiz pack"
    static let formats = ["json", "csv"]

    static func decode(_ bytes: [UInt8], format: String, fileName: String) throws(RuleError) -> QuizPack {
        if format == "csv" {
            return try PackFile.decodeCSV(bytes: bytes, name: (fileName as NSString).deletingPathExtension)
        }
        return try PackFile.decodeJSON(bytes: bytes)
    }

    static func encode(_ item: QuizPack, format: String) -> [UInt8] {
        Array((format == "csv" ? PackFile.encodeCSV(item) : PackFile.encodeJSON(item)).utf8)
    }

    static func unknownItem(_ id: String) -> RuleError {
        RuleError(.unknownPack, "There is no pack \"\(id)\". Type packs to list them.")
    }
}
