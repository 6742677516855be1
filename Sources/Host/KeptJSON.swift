import Foundation
import Protocol
import Rules

/// A value the host keeps in one JSON file of its data folder across games and restarts (Let Me Fly's records,
/// the players' reward characters): read once, changed in memory, written atomically when it changed. A file that
/// cannot be read is reported once (`problem`), kept beside as `NAME.broken-<n>` at the first save, and play goes
/// on from the empty value.
struct KeptJSON<Value: Codable> {
    /// The file, or nil for a value kept in memory only (no data folder).
    let path: String?
    /// What the file holds, with the changes since; whoever changes it calls `noteChanged`.
    var value: Value
    /// Why the file could not be read, to tell the operator once.
    private(set) var problem: String?
    /// What the operator's sentences call the file ("the rewards").
    private let title: String
    private var isUnread = false
    private var isDirty = false

    /// The value in `path`, or `empty` when there is no file or it cannot be read; `title` names the file in the
    /// operator's sentences and `afresh` says what an unreadable file means for play ("this game starts from
    /// empty records").
    init(path: String?, empty: Value, title: String, afresh: String) {
        self.path = path
        self.title = title
        value = empty
        guard let path, FileManager.default.fileExists(atPath: path) else { return }
        do {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw StorageError("it cannot be read")
            }
            value = try JSONCoding.decode(Value.self, from: Array(data))
        } catch {
            isUnread = true
            problem =
                "\(ContentText.capitalizingFirst(title)) \(path) could not be read (\(error)); \(afresh) and the old "
                + "file is kept beside it when the new one is saved."
        }
    }

    /// Notes that `value` changed, so that the next `write` writes it.
    mutating func noteChanged() { isDirty = true }

    /// Writes the file if anything changed (an unread file is first set aside); a failure is returned as a sentence
    /// for the operator.
    mutating func write() -> String? {
        guard isDirty, let path else { return nil }
        do {
            let folder = (path as NSString).deletingLastPathComponent
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            if isUnread, FileManager.default.fileExists(atPath: path) {
                _ = try Storage.setAside(path)
            }
            isUnread = false
            try Storage.writeAtomically(JSONEncoding.pretty(try JSONCoding.encode(value), sortingKeys: true), to: path)
            isDirty = false
            return nil
        } catch {
            return "Could not save \(title) to \(path): \(error). Play goes on; they are kept in memory."
        }
    }
}
