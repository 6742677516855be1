import Foundation
import Protocol
import Rules

/// Recorded sounds of a word list's words (issue #26): `words/audio/<list id>/<word>.<ext>` in the data folder, one
/// file per question word or compound, imported with `words audio LIST WORD FILE`, served to the page at
/// `/audio/<list id>/<word>.<ext>`, and exported beside the list as a folder `<file>.audio/`.
///
/// A word is always looked up among the list's own question words and compounds (case ignored): the name a request
/// or a file gives is a key, never a path, and the stored file is named after the list's word, lowercased (letters
/// only, as every word of a list is).
struct WordAudio {
    /// The largest recording accepted, in bytes.
    static let maximumBytes = 512 * 1024

    /// The audio formats accepted, each known by its first bytes.
    enum Format: String, CaseIterable {
        /// Ogg (Vorbis or Opus), MP3, WAV and MPEG-4 audio, each named by its file extension.
        case ogg, mp3, wav, m4a

        /// The `Content-Type` the host serves it with.
        var contentType: String {
            switch self {
            case .ogg: "audio/ogg"
            case .mp3: "audio/mpeg"
            case .wav: "audio/wav"
            case .m4a: "audio/mp4"
            }
        }

        /// What people call it in messages.
        var title: String { self == .m4a ? "M4A (MPEG-4 audio)" : rawValue.uppercased() }

        /// The format whose magic bytes `bytes` start with, or nil when they are no known audio file.
        static func sniffed(_ bytes: [UInt8]) -> Format? {
            func starts(_ text: String, at offset: Int = 0) -> Bool {
                let magic = Array(text.utf8)
                return bytes.count >= offset + magic.count && Array(bytes[offset..<offset + magic.count]) == magic
            }
            if starts("OggS") { return .ogg }
            if starts("RIFF") && starts("WAVE", at: 8) { return .wav }
            if starts("ftyp", at: 4) { return .m4a }
            if starts("ID3") { return .mp3 }
            // An MPEG audio frame header without an ID3 tag: 11 sync bits, then a layer that is not "reserved".
            if bytes.count >= 2, bytes[0] == 0xFF, bytes[1] & 0xE0 == 0xE0, bytes[1] & 0x06 != 0 { return .mp3 }
            return nil
        }
    }

    /// The folder holding one subfolder per list (`words/audio`).
    let folder: String

    /// The recordings of the word lists whose folder is `wordsFolder` (`DATA/words`).
    init(wordsFolder: String) { folder = wordsFolder + "/audio" }

    /// The folder of one list's recordings; `list` is an id the library holds (a slug).
    func folder(list: String) -> String { folder + "/" + list }

    /// The key a word is stored and looked up under: the word lowercased.
    static func key(_ word: String) -> String { word.lowercased() }

    /// The list's own spelling of `word` (a question word or a compound of a correct option, case ignored), or nil
    /// when the list has no such word.
    static func listWord(_ word: String, in list: WordList) -> String? {
        let wanted = key(word)
        for entry in list.words {
            if key(entry.word) == wanted { return entry.word }
            for option in entry.correct where key(entry.compound(with: option)) == wanted {
                return entry.compound(with: option)
            }
        }
        return nil
    }

    /// The recorded words of `list` by key, with each one's format; empty when it has none.
    func recordings(list: WordList) -> [String: Format] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder(list: list.id))) ?? []
        var found: [String: Format] = [:]
        for name in names {
            let base = (name as NSString).deletingPathExtension
            guard let format = Format(rawValue: (name as NSString).pathExtension),
                let word = Self.listWord(base, in: list), Self.key(word) == base
            else { continue }
            found[base] = format
        }
        return found
    }

    /// The path of `word`'s recording in `format`; `word` must be the list's own word (see `listWord`).
    private func path(list: WordList, word: String, format: Format) -> String {
        folder(list: list.id) + "/" + Self.key(word) + "." + format.rawValue
    }

    /// The URL path the page fetches a recording at: `/audio/LIST/WORD.EXT`, the word percent-encoded as UTF-8.
    static func urlPath(list: String, word: String, format: Format) -> String {
        let encoded = key(word).addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? key(word)
        return "/audio/\(list)/\(encoded).\(format.rawValue)"
    }

    /// The bytes of a recording checked for import: a known audio format matching the file's extension, at most
    /// `maximumBytes`; `name` names the file in messages.
    static func checkedRecording(_ bytes: [UInt8], name: String) throws(RuleError) -> Format {
        let formats = Format.allCases.map { ".\($0.rawValue)" }.joined(separator: ", ")
        guard let named = Format(rawValue: (name as NSString).pathExtension.lowercased()) else {
            throw RuleError(.badField, "\(name): recordings are \(formats) files.")
        }
        guard bytes.count <= maximumBytes else {
            throw RuleError(
                .badField,
                "\(name) is \(bytes.count / 1024) KiB; a recording may be at most \(maximumBytes / 1024) KiB "
                    + "(a word or two, compressed: .ogg or .mp3).")
        }
        guard let format = Format.sniffed(bytes) else {
            throw RuleError(.badField, "\(name) is not an audio file: it does not start as \(formats) files do.")
        }
        guard format == named else {
            throw RuleError(
                .badField,
                "\(name) is named .\(named.rawValue) but holds \(format.title) audio; rename it to "
                    + ".\(format.rawValue).")
        }
        return format
    }

    /// Stores `bytes` as the recording of `word` (a word of `list`), replacing any earlier one; returns the list's
    /// spelling of the word.
    @discardableResult
    func store(_ bytes: [UInt8], name: String, list: WordList, word: String) throws(RuleError) -> String {
        guard let listWord = Self.listWord(word, in: list) else {
            throw RuleError(
                .badField,
                "\(word) is neither a question word nor a compound of the list \(list.id); record a word it has "
                    + "(words show \(list.id)).")
        }
        let format = try Self.checkedRecording(bytes, name: name)
        do {
            try FileManager.default.createDirectory(atPath: folder(list: list.id), withIntermediateDirectories: true)
            try Storage.writeAtomically(bytes, to: path(list: list, word: listWord, format: format))
            for other in Format.allCases where other != format {
                try? FileManager.default.removeItem(atPath: path(list: list, word: listWord, format: other))
            }
        } catch {
            throw RuleError(.storage, "Could not save the recording of \(listWord): \(error).")
        }
        return listWord
    }

    /// Removes the recording of `word`; false when it had none.
    func remove(list: WordList, word: String) -> Bool {
        guard let listWord = Self.listWord(word, in: list) else { return false }
        var removed = false
        for format in Format.allCases {
            if (try? FileManager.default.removeItem(atPath: path(list: list, word: listWord, format: format))) != nil {
                removed = true
            }
        }
        return removed
    }

    /// Removes every recording of the list `id` (the list was deleted).
    func removeAll(list id: String) {
        guard !id.isEmpty, !id.contains("/"), !id.hasPrefix(".") else { return }
        try? FileManager.default.removeItem(atPath: folder(list: id))
    }

    /// The recording a request names: `file` is the last part of `/audio/LIST/WORD.EXT` as sent (percent-encoded),
    /// looked up among `list`'s words; nil when the list has no such word or no recording of it in that format.
    func served(list: WordList, file: String) -> (bytes: [UInt8], contentType: String)? {
        let ext = (file as NSString).pathExtension
        guard let format = Format(rawValue: ext), !ext.isEmpty else { return nil }
        let encoded = String(file.dropLast(ext.count + 1))
        guard let word = encoded.removingPercentEncoding, let listWord = Self.listWord(word, in: list),
            let data = FileManager.default.contents(atPath: path(list: list, word: listWord, format: format))
        else { return nil }
        return (Array(data), format.contentType)
    }

    // MARK: Export and import beside a list's file

    /// The folder that travels beside an exported list file: `garden.txt` → `garden.audio`.
    static func bundleFolder(besideListFile file: String) -> String {
        (file as NSString).deletingPathExtension + ".audio"
    }

    /// Copies every recording of `list` into the folder beside its exported `file`; returns a sentence, or nil when
    /// the list has none.
    func export(list: WordList, besideFile file: String) throws(RuleError) -> String? {
        let recorded = recordings(list: list)
        guard !recorded.isEmpty else { return nil }
        let target = Self.bundleFolder(besideListFile: file)
        do {
            try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true)
            for (word, format) in recorded.sorted(by: { $0.key < $1.key }) {
                let name = word + "." + format.rawValue
                guard let data = FileManager.default.contents(atPath: folder(list: list.id) + "/" + name) else {
                    continue
                }
                try Storage.writeAtomically(Array(data), to: target + "/" + name)
            }
        } catch {
            throw RuleError(.storage, "Wrote the list, but could not write its recordings to \(target): \(error).")
        }
        return "Its \(Wording.count(recorded.count, "recording")) went to \(target)/."
    }

    /// Imports the recordings in the folder beside an imported list `file`, each checked as `words audio` checks
    /// one; returns a sentence (what was imported and what was skipped, and why), or nil when there is no folder.
    func importBundle(besideFile file: String, into list: WordList) -> String? {
        let source = Self.bundleFolder(besideListFile: file)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: source) else { return nil }
        var imported = 0
        var skipped: [String] = []
        for name in names.sorted() where !name.hasPrefix(".") {
            let base = (name as NSString).deletingPathExtension
            guard let data = FileManager.default.contents(atPath: source + "/" + name) else {
                skipped.append("\(name) cannot be read")
                continue
            }
            do {
                try store(Array(data), name: name, list: list, word: base)
                imported += 1
            } catch {
                skipped.append(error.message)
            }
        }
        var sentence = "Imported \(Wording.count(imported, "recording")) from \(source)/."
        if !skipped.isEmpty { sentence += " Skipped: " + skipped.joined(separator: " ") }
        return sentence
    }
}
