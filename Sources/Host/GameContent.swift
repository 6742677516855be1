import Foundation
import Rules

/// Odd One Out's puzzle packs: `puzzles/<id>.json` in the data folder, imported and exported as JSON or CSV
/// (`difficulty,outsider,word1,word2,word3,link`; see `OutsiderPackFile`).
enum OutsiderPacks: ContentKind {
    typealias Library = OutsiderPackLibrary

    static let folderName = "puzzles"
    static let noun = "puzzle pack"
    static let formats = ["json", "csv"]

    static func decode(_ bytes: [UInt8], format: String, fileName: String) throws(RuleError) -> OutsiderPack {
        if format == "csv" {
            return try OutsiderPackFile.decodeCSV(bytes: bytes, name: (fileName as NSString).deletingPathExtension)
        }
        return try OutsiderPackFile.decodeJSON(bytes: bytes)
    }

    static func encode(_ item: OutsiderPack, format: String) -> [UInt8] {
        Array((format == "csv" ? OutsiderPackFile.encodeCSV(item) : OutsiderPackFile.encodeJSON(item)).utf8)
    }

    static func unknownItem(_ id: String) -> RuleError {
        RuleError(.unknownPack, "There is no puzzle pack \"\(id)\". See `puzzles`.")
    }
}

/// Station hunts: `hunts/<id>.json` in the data folder, imported and exported as JSON (see `HuntFile`). A hunt read
/// without codes gets generated ones, and the stored file keeps them from then on.
enum Hunts: ContentKind {
    typealias Library = HuntLibrary

    static let folderName = "hunts"
    static let noun = "hunt"
    static let formats = ["json"]

    static func decode(_ bytes: [UInt8], format: String, fileName: String) throws(RuleError) -> Hunt {
        try HuntFile.decode(bytes: bytes)
    }

    static func encode(_ item: Hunt, format: String) -> [UInt8] { Array(HuntFile.encode(item).utf8) }

    static func unknownItem(_ id: String) -> RuleError {
        RuleError(.unknownHunt, "There is no hunt \"\(id)\". See `hunt list`.")
    }
}

extension Storage {
    // MARK: Halls of fame

    /// The folder of the hunts' halls of fame, one `<hunt id>.json` each.
    var hallsDirectory: String { directory + "/halls" }

    /// Where the hall of fame of `hunt` is kept.
    func hallOfFamePath(hunt: String) -> String { hallsDirectory + "/\(hunt).json" }

    /// The hall of fame of `hunt` as stored, or nil when nobody finished it yet; a file that cannot be read is
    /// reported and treated as empty (it is kept aside before the next write).
    func hallOfFame(hunt: String) -> HallOfFame? {
        let path = hallOfFamePath(hunt: hunt)
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        do {
            return try HallOfFame.decode(bytes: Array(data))
        } catch {
            log.warning("The hall of fame \(path) could not be read: \(error.message) It is kept as it is.")
            return nil
        }
    }

    /// Adds `runs` to the hall of fame of `hunt` (called `name`) and writes it atomically; a file that cannot be
    /// read is first kept beside it as `.broken-<n>`. Returns the hall as written.
    @discardableResult
    func recordHallOfFame(hunt: String, name: String, runs: [HallOfFame.Entry]) throws -> HallOfFame {
        try FileManager.default.createDirectory(atPath: hallsDirectory, withIntermediateDirectories: true)
        let path = hallOfFamePath(hunt: hunt)
        let stored = hallOfFame(hunt: hunt)
        var hall = stored ?? HallOfFame(hunt: hunt, name: name)
        if stored == nil, FileManager.default.fileExists(atPath: path) {
            let kept = try Storage.setAside(path)
            log.warning(
                "The hall of fame \(path) could not be read, so it was kept as \(kept) before writing a new one.")
        }
        hall.name = name
        hall.record(runs)
        try Storage.writeAtomically(hall.encoded(), to: path)
        return hall
    }
}
