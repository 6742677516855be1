import Common

/// A JSON content file (a quiz pack, a puzzle pack, a word list…) read so that every problem names its line.
///
/// It reads with the project's one JSON reader (`JSONParsing.parseDocument`); a syntax error says where,
/// as `line 7, column 12: expected ',' or '}' in an object but found '"'`, and the fields read through
/// `JSONField` or decoded with `decode(_:)` report `line 12: question 3 has no "answer".`
public struct JSONFile: Sendable {
    /// The parsed document, with the position of every value.
    public let document: JSONDocument
    /// What the file must hold, completing "it must hold …" ("one JSON object with \"name\" and \"questions\"").
    public let expectation: String

    /// Parses `bytes` (UTF-8, a byte-order mark allowed); `expectation` says what the file must hold, for messages.
    ///
    /// - Throws: a `bad_json` `RuleError` starting with the line (and, for syntax errors, the column) at fault.
    public init(bytes: [UInt8], expecting expectation: String) throws(RuleError) {
        self.expectation = expectation
        _ = try ContentText.utf8(bytes, code: .badJSON)
        let start = bytes.starts(with: ContentText.byteOrderMark) ? 3 : 0
        guard bytes[start...].contains(where: { !JSONFile.isWhitespace($0) }) else {
            throw RuleError(.badJSON, "The file is empty; it must hold \(expectation).")
        }
        do {
            document = try JSONParsing.parseDocument(bytes)
        } catch {
            throw RuleError(.badJSON, JSONFile.message(for: error, in: bytes))
        }
    }

    /// The top-level value, which must be an object; `name` is what messages call it ("the pack").
    public func rootObject(named name: String) throws(RuleError) -> JSONField {
        let root = JSONField(file: self, value: document.value, path: [], name: name, context: "")
        guard case .object = document.value else {
            throw root.error("the file must hold \(expectation).")
        }
        return root
    }

    /// Decodes a `T` from the whole file with `JSONCoding`, naming the line of any missing or mistyped value.
    public func decode<T: Decodable>(_ type: T.Type) throws(RuleError) -> T {
        do {
            return try JSONCoding.decode(type, from: document.value)
        } catch let error as DecodingError {
            throw refusal(for: error)
        } catch {
            throw RuleError(.badJSON, "line 1: \(error)")
        }
    }

    // MARK: Messages

    /// A parse error as a sentence that starts with its line and column, such as
    /// `line 4, column 23: expected ',' or '}' in an object but found '"'`.
    public static func message(for error: JSONParseError, in bytes: [UInt8]) -> String {
        let (line, byteColumn) = JSONDocument.position(ofOffset: error.offset, in: bytes)
        let lineStart = error.offset - (byteColumn - 1)
        // Count characters, not bytes, so the column matches what an editor shows (a byte-order mark is invisible).
        var column = 1 + bytes[lineStart..<min(error.offset, bytes.count)].count { $0 & 0xC0 != 0x80 }
        if lineStart == 0, bytes.starts(with: ContentText.byteOrderMark), error.offset >= 3 { column -= 1 }
        let found = describeCharacter(at: error.offset, in: bytes)
        let reason: String
        switch error.reason {
        case let text where text.hasPrefix("expected"):
            reason = "\(text) but found \(found)"
        case "unexpected character", "unexpected word":
            reason = "unexpected \(found) where a value should be"
        case "unexpected text after the JSON value":
            reason = "unexpected \(found) after the end of the JSON value"
        case "control character inside a string":
            reason = "a text value contains a line break or control character; write a line break as \\n"
        case let text where text.hasSuffix("surrogate in a \\u escape"):
            reason = "a \\u escape holds half of a surrogate pair"
        case let text where text.hasPrefix("the JSON ends"):
            reason = "\(text); a closing quote mark or bracket may be missing"
        default:
            reason = error.reason
        }
        return "line \(line), column \(column): \(reason)."
    }

    /// The character at `offset`, as an error message quotes it.
    static func describeCharacter(at offset: Int, in bytes: [UInt8]) -> String {
        guard offset < bytes.count else { return "the end of the file" }
        let byte = bytes[offset]
        if byte == 0x0A || byte == 0x0D { return "the end of the line" }
        if byte < 0x20 || byte == 0x7F { return "a control character" }
        var end = offset + 1
        while end < bytes.count, end - offset < 4, bytes[end] & 0xC0 == 0x80 { end += 1 }
        guard let character = String(validating: bytes[offset..<end], as: UTF8.self), !character.isEmpty else {
            return "a character that is not text"
        }
        return "'\(character)'"
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// A decoding error as a `bad_json` refusal naming the line and the value.
    private func refusal(for error: DecodingError) -> RuleError {
        func located(_ codingPath: [any CodingKey], _ message: (String) -> String) -> RuleError {
            let path = documentPath(codingPath)
            return RuleError(.badJSON, "line \(document.line(of: path)): \(message(JSONFile.phrase(path)))")
        }
        switch error {
        case .keyNotFound(let key, let context):
            return located(context.codingPath) { "\($0) has no \"\(key.stringValue)\"." }
        case .typeMismatch(let type, let context):
            let found = value(at: documentPath(context.codingPath))?.kindName ?? "nothing"
            return located(context.codingPath) { "\($0) must be \(JSONFile.expectedKind(type)), not \(found)." }
        case .valueNotFound(_, let context):
            return located(context.codingPath) { "\($0) is missing." }
        case .dataCorrupted(let context):
            let shown = value(at: documentPath(context.codingPath)).map { " \($0)" } ?? ""
            return located(context.codingPath) { "\($0) cannot be\(shown)." }
        @unknown default:
            return RuleError(.badJSON, "line 1: \(error)")
        }
    }

    /// The document path of a Codable coding path: array positions where the document holds arrays.
    private func documentPath(_ codingPath: [any CodingKey]) -> [JSONPathComponent] {
        var path: [JSONPathComponent] = []
        var current: JSONValue? = document.value
        for key in codingPath {
            if case .array(let elements) = current, let index = key.intValue {
                path.append(.index(index))
                current = elements.indices.contains(index) ? elements[index] : nil
            } else {
                path.append(.key(key.stringValue))
                current = current?[key.stringValue]
            }
        }
        return path
    }

    private func value(at path: [JSONPathComponent]) -> JSONValue? {
        var current: JSONValue? = document.value
        for component in path {
            switch component {
            case .key(let key): current = current?[key]
            case .index(let index):
                current = current?.arrayValue.flatMap { $0.indices.contains(index) ? $0[index] : nil }
            }
        }
        return current
    }

    /// A path as people read it: `"kind" in item 3 of "userCommands"`, or "the file" for the top.
    static func phrase(_ path: [JSONPathComponent]) -> String {
        let words = path.reversed().map { component in
            switch component {
            case .key(let key): return "\"\(key)\""
            case .index(let index): return "item \(index + 1)"
            }
        }
        guard let last = words.first else { return "the file" }
        return words.count == 1 ? last : last + " in " + words.dropFirst().joined(separator: " of ")
    }

    private static func expectedKind(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: return "text"
        case is Bool.Type: return "true or false"
        case is Int.Type, is Int64.Type, is Double.Type: return "a number"
        case is [JSONValue].Type: return "a list"
        case is [String: JSONValue].Type: return "an object"
        default: return "\(type)"
        }
    }
}

/// One value in a `JSONFile`, with what messages call it, for reading content fields with line-numbered errors.
///
/// Messages follow one pattern: a missing member is `line 3: question 1 has no "answer".`, a mistyped one is
/// `line 4: question 1: "text" must be text.`, and `error(_:)` adds the line and the context to any sentence.
public struct JSONField: Sendable {
    /// The file the value is in.
    public let file: JSONFile
    /// The value itself.
    public let value: JSONValue
    /// Where it is in the document.
    public let path: [JSONPathComponent]
    /// What messages call it as a subject: "the pack", "question 3", "\"text\"".
    public let name: String
    /// What messages about it start with: "" at the top level, "question 3: " for the members of question 3.
    public let context: String
    /// What messages about its members start with.
    let membersContext: String

    init(
        file: JSONFile, value: JSONValue, path: [JSONPathComponent], name: String, context: String,
        membersContext: String? = nil
    ) {
        self.file = file
        self.value = value
        self.path = path
        self.name = name
        self.context = context
        self.membersContext = membersContext ?? context
    }

    /// The 1-based line on which the value starts.
    public var line: Int { file.document.line(of: path) }

    /// A `bad_json` error about this value: its line, its context, then `message`.
    public func error(_ message: String) -> RuleError {
        RuleError(.badJSON, "line \(line): \(context)\(message)")
    }

    /// A `bad_json` error about this value's contents: its line, then the context its members get
    /// (`line 4: question 2: ` + `message`).
    public func innerError(_ message: String) -> RuleError {
        RuleError(.badJSON, "line \(line): \(membersContext)\(message)")
    }

    /// The member `key` of this object, or nil when it is missing or `null`.
    public func member(_ key: String) -> JSONField? {
        guard let value = value[key], value != .null else { return nil }
        return JSONField(
            file: file, value: value, path: path + [.key(key)], name: "\"\(key)\"", context: membersContext)
    }

    /// The member `key`, which must be present and not `null`.
    public func required(_ key: String) throws(RuleError) -> JSONField {
        guard let member = member(key) else { throw error("\(name) has no \"\(key)\".") }
        return member
    }

    /// The text of the member `key`, which must be present.
    public func string(_ key: String) throws(RuleError) -> String {
        try required(key).asString()
    }

    /// The text of the member `key`, or nil when it is missing or `null`.
    public func optionalString(_ key: String) throws(RuleError) -> String? {
        try member(key)?.asString()
    }

    /// The whole number in the member `key`, which must be present.
    public func int(_ key: String) throws(RuleError) -> Int {
        try required(key).asInt()
    }

    /// The whole number in the member `key`, or nil when it is missing or `null`.
    public func optionalInt(_ key: String) throws(RuleError) -> Int? {
        try member(key)?.asInt()
    }

    /// The `true` or `false` in the member `key`, or nil when it is missing or `null`.
    public func optionalBool(_ key: String) throws(RuleError) -> Bool? {
        guard let member = member(key) else { return nil }
        guard case .bool(let flag) = member.value else { throw member.error("\(member.name) must be true or false.") }
        return flag
    }

    /// The elements of the list in the member `key`, which must be present; `itemName` names element n (from 1).
    public func list(_ key: String, itemName: (Int) -> String) throws(RuleError) -> [JSONField] {
        guard let member = member(key) else { throw error("\(name) has no \"\(key)\" list.") }
        guard case .array(let elements) = member.value else { throw member.error("\(member.name) must be a list.") }
        return elements.enumerated().map { offset, element in
            let elementName = itemName(offset + 1)
            return JSONField(
                file: file, value: element, path: member.path + [.index(offset)], name: elementName,
                context: membersContext, membersContext: membersContext + elementName + ": ")
        }
    }

    /// The texts in the list in the member `key`, which must be present.
    public func strings(_ key: String) throws(RuleError) -> [String] {
        guard let member = member(key) else { throw error("\(name) has no \"\(key)\" list.") }
        guard case .array(let elements) = member.value else { throw member.error("\(member.name) must be a list.") }
        var texts: [String] = []
        for (offset, element) in elements.enumerated() {
            guard case .string(let text) = element else {
                let field = JSONField(
                    file: file, value: element, path: member.path + [.index(offset)],
                    name: member.name, context: membersContext)
                throw field.error("\(member.name) must hold only texts; item \(offset + 1) is \(element.kindName).")
            }
            texts.append(text)
        }
        return texts
    }

    /// This value, which must be an object; `description` completes "… must be …" ("an object with \"text\"").
    public func object(_ description: String) throws(RuleError) -> JSONField {
        guard case .object = value else { throw error("\(name) must be \(description).") }
        return self
    }

    /// This value as text.
    public func asString() throws(RuleError) -> String {
        guard case .string(let text) = value else { throw error("\(name) must be text.") }
        return text
    }

    /// This value as a whole number.
    public func asInt() throws(RuleError) -> Int {
        guard let number = value.intValue, let integer = Int(exactly: number) else {
            throw error("\(name) must be a whole number.")
        }
        return integer
    }
}
