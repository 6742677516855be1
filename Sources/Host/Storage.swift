import Foundation
import Protocol
import Rules

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Files in the data folder: the content stores, the command library, atomic writes, the journal and the game log.
///
/// A final class so the games' journal hooks and the server share one journal buffer; it lives on the loop's thread.
package final class Storage {
    /// The data folder.
    let directory: String
    /// The quiz packs, one file each in `packs/`.
    let packStore: ContentStore<QuizPacks>
    /// The Queen's command library (built-ins plus the operator's part in `commands.json`).
    var commands: CommandLibrary
    let log: Logger
    private var journalHandle: Int32 = -1
    private var journalBuffer: [UInt8] = []
    var isJournalSyncEnabled = true
    /// Bytes of the journal file that are whole records, written and flushed: a failed write is cut back to here.
    private(set) var journalCommittedLength = 0
    /// Whether the file may hold bytes past `journalCommittedLength` that a failed cut could not remove yet.
    private var isJournalRollbackPending = false
    /// Why the last write or flush of the journal failed; nil once one succeeds.
    private(set) var journalFailure: JournalFailure?
    /// How many records were ever queued: the loop compares it to tell whether a turn journaled anything.
    private(set) var queuedRecordCount = 0
    /// Writes bytes to the journal file (`write(2)`; a test seam for failures).
    var writeJournalBytes: (Int32, UnsafeRawBufferPointer) -> Int = { fd, bytes in
        write(fd, bytes.baseAddress, bytes.count)
    }
    /// Flushes the journal file to the disk (`fdatasync(2)`, `fsync(2)` on Darwin; a test seam for failures).
    var flushJournalFile: (Int32) -> Int32 = { fd in
        #if canImport(Darwin)
            fsync(fd)
        #else
            fdatasync(fd)
        #endif
    }
    /// Problems found while loading, to show the operator.
    var loadProblems: [String] = []
    /// Whether `commands.json` exists but could not be read at start, so it must be kept before it is overwritten.
    var isCommandsFileUnread = false
    /// When tonight began: when the journal's room was opened (a resumed host keeps its evening; the command line
    /// reads the running or last host's), for records kept across games such as tonight's leaderboard. Nil when
    /// there is no journal, or it does not say.
    private(set) var eveningStart: Date?

    var journalPath: String { directory + "/journal.jsonl" }
    var packsDirectory: String { directory + "/" + QuizPacks.folderName }
    var commandsPath: String { directory + "/commands.json" }
    var gamesDirectory: String { directory + "/games" }

    package init(directory: String, log: Logger) throws {
        self.directory = directory
        self.log = log
        commands = CommandLibrary()
        for folder in [directory, directory + "/games"] {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
        packStore = try ContentStore(folder: directory + "/" + QuizPacks.folderName, log: log)
        loadProblems += packStore.problems
        loadCommands()
        eveningStart = journaledEveningStart()
    }

    // MARK: Atomic files

    /// Writes `data` to `path` so that a crash leaves either the old file or the new one, never a mix:
    /// a temporary file in the same folder, fsync, rename over the target, fsync the folder.
    static func writeAtomically(_ data: [UInt8], to path: String) throws {
        let folder = (path as NSString).deletingLastPathComponent
        let temporary = folder + "/." + (path as NSString).lastPathComponent + ".tmp-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { throw StorageError("cannot create \(temporary): \(String(cString: strerror(errno)))") }
        var offset = 0
        while offset < data.count {
            let written = data[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                let message = String(cString: strerror(errno))
                close(fd)
                unlink(temporary)
                throw StorageError("cannot write \(temporary): \(message)")
            }
            offset += written
        }
        guard fsync(fd) == 0 else {
            let message = String(cString: strerror(errno))
            close(fd)
            unlink(temporary)
            throw StorageError("cannot fsync \(temporary): \(message)")
        }
        close(fd)
        guard rename(temporary, path) == 0 else {
            let message = String(cString: strerror(errno))
            unlink(temporary)
            throw StorageError("cannot rename \(temporary) to \(path): \(message)")
        }
        let folderFD = open(folder, O_RDONLY)
        if folderFD >= 0 {
            _ = fsync(folderFD)
            close(folderFD)
        }
    }

    /// Moves the file at `path` aside to `path.broken-<n>` (the first free n from 1) so that it is kept, not
    /// overwritten; returns the new name (without the folder).
    static func setAside(_ path: String) throws(StorageError) -> String {
        var number = 1
        while FileManager.default.fileExists(atPath: "\(path).broken-\(number)") { number += 1 }
        let kept = "\(path).broken-\(number)"
        guard rename(path, kept) == 0 else {
            throw StorageError("cannot keep \(path) as \(kept): \(String(cString: strerror(errno)))")
        }
        return (kept as NSString).lastPathComponent
    }

    // MARK: Journal

    /// Starts a new journal (a fresh room), replacing any old one.
    package func startJournal(room: String, adminKey: String, at clock: Int64) throws {
        if journalHandle >= 0 { close(journalHandle) }
        if FileManager.default.fileExists(atPath: journalPath) {
            let stamp = Int(Date().timeIntervalSince1970)
            try? FileManager.default.moveItem(atPath: journalPath, toPath: directory + "/journal-\(stamp).jsonl.old")
        }
        try openJournal()
        let opened = Date()
        eveningStart = opened
        journal(.room(code: room, adminKey: adminKey, at: clock, opened: ISO8601DateFormatter().string(from: opened)))
        guard syncJournal() else {
            throw StorageError("cannot write \(journalPath): \(journalFailure?.description ?? "unknown error")")
        }
    }

    /// When the journal's room was opened, from its first record (nil: no journal, or it does not say).
    private func journaledEveningStart() -> Date? {
        guard let file = FileHandle(forReadingAtPath: journalPath) else { return nil }
        defer { try? file.close() }
        let head = Array(file.readData(ofLength: 4096))
        guard let end = head.firstIndex(of: 0x0A), let object = JournalFormat.decode(Array(head[..<end])),
            case .room(_, _, _, let opened?)? = try? JSONCoding.decode(JournalRecord.self, from: .object(object))
        else { return nil }
        return ISO8601DateFormatter().date(from: opened)
    }

    /// Opens the existing journal for appending after a resume, first cutting it back to `wholeLength`, the end of
    /// its last whole record: a damaged tail (a record cut short by a power cut, NUL padding, a partial write) is
    /// kept in a side file, `journal.jsonl.damaged-<n>`, never appended to. Returns a sentence saying what was cut.
    @discardableResult
    func openJournal(keepingFirst wholeLength: Int? = nil) throws -> String? {
        var note: String?
        if let wholeLength, let data = FileManager.default.contents(atPath: journalPath), data.count > wholeLength {
            let tail = Array(data[wholeLength...])
            var number = 1
            while FileManager.default.fileExists(atPath: "\(journalPath).damaged-\(number)") { number += 1 }
            let side = "\(journalPath).damaged-\(number)"
            try Storage.writeAtomically(tail, to: side)
            guard truncate(journalPath, off_t(wholeLength)) == 0 else {
                throw StorageError("cannot cut \(journalPath) back to its last whole record: \(Storage.errorText())")
            }
            note =
                "The journal ended in \(tail.count) damaged bytes (the host stopped mid-write); they were kept in "
                + "\((side as NSString).lastPathComponent) and the journal continues from its last whole record."
        }
        journalHandle = open(journalPath, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        guard journalHandle >= 0 else { throw StorageError("cannot open \(journalPath): \(Storage.errorText())") }
        if note != nil { _ = flushJournalFile(journalHandle) }  // the cut is on disk before anything is appended
        let end = lseek(journalHandle, 0, SEEK_END)
        journalCommittedLength = end >= 0 ? Int(end) : 0
        return note
    }

    /// Queues a record; `syncJournal` writes and fsyncs everything queued before replies go out.
    func journal(_ record: JournalRecord) {
        guard journalHandle >= 0, let body = try? JSONCoding.bytes(record) else { return }
        appendJournalLine(body)
    }

    /// Queues one journal line: the body's CRC-32, a space, the body and a newline.
    private func appendJournalLine(_ body: [UInt8]) {
        journalBuffer.append(contentsOf: JournalFormat.checksumHex(body).utf8)
        journalBuffer.append(0x20)
        journalBuffer.append(contentsOf: body)
        journalBuffer.append(0x0A)
        queuedRecordCount += 1
    }

    /// Queues a game event record whose `event` member is already JSON text (`{"k":"event","at":…,"event":…}`).
    func journalEvent(_ event: [UInt8], at milliseconds: Int64) {
        guard journalHandle >= 0 else { return }
        var body = JournalRecord.eventPrefix(at: milliseconds)
        body.append(contentsOf: event)
        body.append(UInt8(ascii: "}"))
        appendJournalLine(body)
    }

    /// Whether records are queued that are not yet safely on disk.
    var hasUnsavedRecords: Bool { journalHandle >= 0 && !journalBuffer.isEmpty }

    /// Writes the queued records with one write and one fsync (group commit); true when they are on disk.
    ///
    /// When the disk refuses (full, quota, I/O error), the file is cut back to its last whole record, so no
    /// partial record is ever left behind, and the records stay queued for the next try; `journalFailure` says why.
    @discardableResult
    func syncJournal() -> Bool {
        guard journalHandle >= 0, !journalBuffer.isEmpty else { return true }
        if isJournalRollbackPending {
            guard rollBackJournal() else { return false }
        }
        var offset = 0
        while offset < journalBuffer.count {
            let written = journalBuffer[offset...].withUnsafeBytes { writeJournalBytes(journalHandle, $0) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else {
                return failJournal(written == 0 ? ENOSPC : errno, while: "write")
            }
            offset += written
        }
        if isJournalSyncEnabled, flushJournalFile(journalHandle) != 0 {
            return failJournal(errno, while: "flush")
        }
        journalCommittedLength += journalBuffer.count
        journalBuffer.removeAll(keepingCapacity: true)
        journalFailure = nil
        return true
    }

    /// Notes a failed write or flush and cuts the file back to its last whole record.
    private func failJournal(_ code: Int32, while action: String) -> Bool {
        journalFailure = JournalFailure(code: code, action: action)
        isJournalRollbackPending = true
        _ = rollBackJournal()
        return false
    }

    /// Cuts the journal file back to `journalCommittedLength`; false when even that failed (tried again next time).
    private func rollBackJournal() -> Bool {
        guard ftruncate(journalHandle, off_t(journalCommittedLength)) == 0 else { return false }
        isJournalRollbackPending = false
        return true
    }

    private static func errorText() -> String { String(cString: strerror(errno)) }

    // MARK: Game log

    /// Saves a finished game's readable record under `games/`; `endedByOrganiser` when `end` stopped it.
    func saveGameLog(_ record: JSONValue, name: String, endedByOrganiser: Bool = false, log: Logger) {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        let stamp = formatter.string(from: Date())
        let stem = gamesDirectory + "/\(stamp)-\(name)"
        // Two games ended within one second (of any modes): the later one is numbered, so history orders them.
        let sameSecond = ((try? FileManager.default.contentsOfDirectory(atPath: gamesDirectory)) ?? [])
            .filter { $0.hasPrefix(stamp + "-") }.count
        var number = sameSecond + 1
        var path = number == 1 ? stem + ".json" : stem + "-\(number).json"
        while FileManager.default.fileExists(atPath: path) {
            number += 1
            path = stem + "-\(number).json"
        }
        var object = record.objectValue ?? JSONObject()
        var header = GameLogSummary(game: name, finishedAt: ISO8601DateFormatter().string(from: Date()))
        if endedByOrganiser { header.endedBy = "organiser" }
        for member in (try? JSONCoding.encode(header))?.objectValue ?? JSONObject() {
            object[member.key] = member.value
        }
        do {
            try Storage.writeAtomically(JSONEncoding.pretty(.object(object), sortingKeys: true), to: path)
            log.info("Game log saved: \(path)")
        } catch {
            log.error("Could not save the game log: \(error)")
        }
    }

    /// The finished games' log files, oldest first.
    var gameLogFiles: [String] {
        // `20261123-201500-shaky.json`, then `20261123-201500-shaky-2.json` for a second game in the same second.
        func order(_ file: String) -> (String, Int) {
            let stem = file.dropLast(".json".count)
            let tail = stem.split(separator: "-").last.flatMap { Int($0) }
            return (String(file.prefix(15)), tail ?? 1)
        }
        return ((try? FileManager.default.contentsOfDirectory(atPath: gamesDirectory)) ?? [])
            .filter { $0.hasSuffix(".json") }
            .sorted { order($0) < order($1) }
    }

    /// A finished game's log by its number in `history` (1 = oldest) or its file name.
    func gameLog(_ which: String) -> (file: String, log: JSONValue, game: String)? {
        let files = gameLogFiles
        let file =
            Int(which).flatMap { (1...files.count).contains($0) ? files[$0 - 1] : nil }
            ?? files.first { $0 == which || $0 == which + ".json" }
        guard let file, let data = FileManager.default.contents(atPath: gamesDirectory + "/" + file),
            let log = try? JSONParsing.parse(Array(data)),
            let summary = try? JSONCoding.decode(GameLogSummary.self, from: log)
        else { return nil }
        return (file, log, summary.game ?? "")
    }

    /// One line per finished game, newest last, each with its number for `history N`.
    func history() -> [String] {
        let files = gameLogFiles
        return files.enumerated().map { index, file in
            "\(index + 1). " + historyLine(file)
        }
    }

    private func historyLine(_ file: String) -> String {
        guard let data = FileManager.default.contents(atPath: gamesDirectory + "/" + file),
            let summary = try? JSONCoding.decode(GameLogSummary.self, from: Array(data))
        else { return "\(file): unreadable" }
        let ranking = (summary.ranking ?? []).prefix(5).compactMap { entry -> String? in
            guard let name = entry.team ?? entry.player else { return nil }
            let rank = entry.rank.map { "#\($0) " } ?? ""
            // Compound words rank by place and progress, not by a score: show what the rank stands for.
            if let done = entry.done, let of = entry.of {
                return rank + "\(name) \(done)/\(of)" + (entry.place.map { " (place \($0))" } ?? "")
            }
            return rank + name + (entry.score.map { " \($0)" } ?? "")
        }
        let rounds = summary.rounds.map { Wording.count($0.count, "round") } ?? ""
        // Whose reward character grew in this game, for the teacher: `grew: Ann's fox (stage 2)`.
        let grown = (summary.rewards ?? []).filter { !$0.unlocked.isEmpty }.map {
            "\($0.player)'s \($0.character) (stage \($0.stage))"
        }
        let ended = summary.endedBy == nil ? "" : "  (ended by the organiser)"
        let exercise = summary.exercise.map { " " + $0 } ?? ""  // `words bingo`
        return "\(summary.finishedAt ?? "?")  \(summary.game ?? "?")\(exercise)  "
            + (ranking.isEmpty ? rounds : ranking.joined(separator: ", "))
            + (grown.isEmpty ? "" : " · grew: " + grown.joined(separator: ", ")) + ended + "  [\(file)]"
    }
}

/// What every game log holds besides its game's own record: which game, when it ended, and its ranking or rounds.
struct GameLogSummary: Codable {
    /// One line of a ranking (a team's or a player's).
    struct Entry: Codable {
        var team: String?
        var player: String?
        var rank: Int?
        var score: Int?
        /// Compound words: what the team got through, of how many, and its place once through.
        var done: Int?
        var of: Int?
        var place: Int?
    }

    var game: String?
    /// Compound words: the exercise played (`cards`, `bingo`, `board`).
    var exercise: String?
    var finishedAt: String?
    /// Who stopped the game before its end: `organiser` (the `end` command); absent when it played to its end.
    var endedBy: String?
    var ranking: [Entry]?
    var rounds: [JSONValue]?
    /// What the players' reward characters did in the game (`RewardKeeper.GameRecord`), when any counted.
    var rewards: [RewardKeeper.GameRecord]?

    init(game: String, finishedAt: String) {
        self.game = game
        self.finishedAt = finishedAt
    }
}

/// Why the journal could not be saved, in words for the operator and for players.
struct JournalFailure: Equatable, CustomStringConvertible {
    /// The `errno` of the failed call.
    let code: Int32
    /// What was being done: `write` or `flush`.
    let action: String

    /// What went wrong in a few words, for everyone: "disk full".
    var reason: String {
        switch code {
        case ENOSPC: return "disk full"
        case EDQUOT: return "disk quota reached"
        case EIO: return "the disk reports an error"
        case EROFS: return "the disk became read-only"
        default: return String(cString: strerror(code)).lowercased()
        }
    }

    var description: String { "cannot \(action) the journal: \(String(cString: strerror(code))) (errno \(code))" }
}

/// A storage failure, said plainly.
struct StorageError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The journal's line format: `<crc32 hex> <json>\n`, so damage anywhere is detected, not guessed.
enum JournalFormat {
    private static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 != 0 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    /// CRC-32 (IEEE) of `bytes`.
    static func checksum(_ bytes: some Sequence<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }

    static func checksumHex(_ bytes: some Sequence<UInt8>) -> String {
        let hex = String(checksum(bytes), radix: 16)
        return String(repeating: "0", count: 8 - hex.count) + hex
    }

    /// What reading a journal found.
    struct Reading {
        var records: [JSONObject] = []
        /// Bytes from the start that are whole records; what follows (if anything) is the damaged tail.
        var wholeLength = 0
        /// The journal ends in bytes that are no whole record (a crash mid-write, NUL padding, a partial write),
        /// with no whole record after them; everything before loaded.
        var isTornAtEnd = false
        /// Damaged lines followed by a whole record (1-based line numbers): damage that cannot be a torn tail.
        var damagedLines: [Int] = []
    }

    /// Reads every record. Damage after the last whole record is a torn tail (`wholeLength` says where it starts);
    /// damage before a whole record is reported by line. A record counts only with its line end.
    static func read(_ data: [UInt8]) -> Reading {
        var reading = Reading()
        var damagedSinceWhole: [Int] = []
        var start = 0
        var lineNumber = 0
        while start < data.count {
            lineNumber += 1
            let end = data[start...].firstIndex(of: 0x0A) ?? data.count
            if end < data.count, let record = decode(Array(data[start..<end])) {
                reading.damagedLines += damagedSinceWhole
                damagedSinceWhole = []
                reading.records.append(record)
                reading.wholeLength = end + 1
            } else {
                damagedSinceWhole.append(lineNumber)
            }
            start = end + 1
        }
        reading.isTornAtEnd = reading.wholeLength < data.count
        return reading
    }

    static func decode(_ line: [UInt8]) -> JSONObject? {
        guard line.count > 9, line[8] == 0x20 else { return nil }
        let body = Array(line[9...])
        guard let expected = UInt32(String(decoding: line[0..<8], as: UTF8.self), radix: 16),
            checksum(body) == expected,
            let value = try? JSONParsing.parse(body), let object = value.objectValue
        else { return nil }
        return object
    }
}
