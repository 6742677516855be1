import Foundation
import Protocol

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The places this computer's user holds in rooms: one resume token per host, room and player name, so that
/// `partyline` started again (after a crash, a closed terminal or Ctrl-C) comes back as the same player.
///
/// A pure value; `ResumeFile` reads and writes it. Tokens are secrets: the file is the user's alone (mode 0600).
struct ResumePlaces: Codable, Equatable, Sendable {
    /// One place in one room.
    struct Place: Codable, Equatable, Sendable {
        /// The host as the client reached it (`192.168.1.20:4747`).
        var host: String
        /// The room code.
        var room: String
        /// The player's name as the host welcomed it.
        var name: String
        /// The player's team.
        var team: String
        /// The resume token (secret).
        var token: String
        /// When it was saved, seconds since 1970.
        var savedAt: Int64
    }

    /// How long a place is kept: far beyond the host's resume window, so a token is tried rather than guessed.
    static let keptSeconds: Int64 = 12 * 3600
    /// At most this many places are kept (the newest).
    static let limit = 50

    /// Every place kept, oldest first.
    private(set) var places: [Place] = []

    /// The place held in `room` at `host` by `name` (any case), or when `name` is nil the newest one there.
    func place(host: String, room: String, name: String?, now: Int64) -> Place? {
        places.last { place in
            place.host == host && place.room == room && now - place.savedAt < ResumePlaces.keptSeconds
                && (name.map { place.name.lowercased() == $0.lowercased() } ?? true)
        }
    }

    /// Keeps `place` (replacing the same player's older one), drops expired places and the oldest beyond the limit.
    mutating func keep(_ place: Place) {
        forget(host: place.host, room: place.room, name: place.name)
        places.removeAll { place.savedAt - $0.savedAt >= ResumePlaces.keptSeconds }
        places.append(place)
        if places.count > ResumePlaces.limit { places.removeFirst(places.count - ResumePlaces.limit) }
    }

    /// Forgets `name`'s place in `room` at `host` (every place there when `name` is nil).
    mutating func forget(host: String, room: String, name: String?) {
        places.removeAll { place in
            place.host == host && place.room == room
                && (name.map { place.name.lowercased() == $0.lowercased() } ?? true)
        }
    }
}

/// Where `ResumePlaces` lives on disk: the user's state folder, written atomically with mode 0600.
struct ResumeFile: Sendable {
    /// The file's path.
    let path: String

    /// The file in the user's state folder: `$XDG_STATE_HOME/partyline`, else `~/.local/state/partyline`
    /// (`~/Library/Application Support/Partyline` on macOS); nil without a home folder.
    static func standard(environment: [String: String] = ProcessInfo.processInfo.environment) -> ResumeFile? {
        #if canImport(Darwin)
            guard let home = environment["HOME"], home.hasPrefix("/") else { return nil }
            return ResumeFile(path: home + "/Library/Application Support/Partyline/places.json")
        #else
            if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
                return ResumeFile(path: state + "/partyline/places.json")
            }
            guard let home = environment["HOME"], home.hasPrefix("/") else { return nil }
            return ResumeFile(path: home + "/.local/state/partyline/places.json")
        #endif
    }

    /// The places kept; none when the file is missing or unreadable (a lost place only means joining by name).
    func load() -> ResumePlaces {
        guard let data = FileManager.default.contents(atPath: path),
            let places = try? JSONCoding.decode(ResumePlaces.self, from: Array(data))
        else { return ResumePlaces() }
        return places
    }

    /// Writes `places`: a temporary file (mode 0600) in the same folder, fsynced, renamed over the old one.
    func save(_ places: ResumePlaces) throws {
        let folder = (path as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(
            atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let bytes = JSONEncoding.encode(try JSONCoding.encode(places))
        let temporary = path + ".tmp-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard fd >= 0 else { throw ResumeFileError("cannot create \(temporary): \(String(cString: strerror(errno)))") }
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                let message = String(cString: strerror(errno))
                close(fd)
                unlink(temporary)
                throw ResumeFileError("cannot write \(temporary): \(message)")
            }
            written += count
        }
        _ = fchmod(fd, 0o600)
        let synced = fsync(fd) == 0
        close(fd)
        guard synced, rename(temporary, path) == 0 else {
            let message = String(cString: strerror(errno))
            unlink(temporary)
            throw ResumeFileError("cannot save \(path): \(message)")
        }
    }
}

/// Why the places could not be saved.
struct ResumeFileError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
