/// What an operator asks of the quiz packs (`{"type":"packs","action":…}`, PROTOCOL.md §8.3), decoded and
/// encoded here and nowhere else.
public enum PackRequest: Equatable, Sendable {
    case list
    case show(pack: String)
    case create(name: String)
    case rename(pack: String, name: String)
    case delete(pack: String)
    case copy(pack: String, name: String?)
    case add(pack: String, question: PackQuestion)
    case edit(pack: String, number: Int, question: PackQuestion)
    case remove(pack: String, number: Int)
    case importFile(String)
    case export(pack: String, file: String)

    /// The actions, for help and errors.
    public static let actions = [
        "list", "show", "create", "rename", "delete", "copy", "add", "edit", "remove", "import", "export",
    ]

    private enum Field: String {
        case pack, name, question, number, file, difficulty, text, answer
    }

    /// Decodes an action and its fields with clear errors.
    public static func decode(action: String, fields object: JSONObject) throws(ProtocolError) -> PackRequest {
        let fields = MessageFields(object: object)
        func text(_ field: Field) throws(ProtocolError) -> String {
            try fields.string(field.rawValue, required: false) ?? ""
        }
        func number() throws(ProtocolError) -> Int {
            guard let number = try fields.integer(Field.number.rawValue) else {
                throw fields.error(.badField, "\"number\" (1 = first question) is missing.")
            }
            return Int(number)
        }
        func question() throws(ProtocolError) -> PackQuestion {
            guard case .object(let question)? = object[Field.question.rawValue],
                let body = question[Field.text.rawValue]?.stringValue,
                let answer = question[Field.answer.rawValue]?.stringValue
            else {
                throw fields.error(
                    .badField,
                    "A question needs \"text\" and \"answer\" (and may give \"difficulty\": easy, medium or hard; "
                        + "medium if left out).")
            }
            let difficulty = question[Field.difficulty.rawValue]?.stringValue ?? "medium"
            return PackQuestion(difficulty: difficulty.lowercased(), text: body, answer: answer)
        }
        switch action {
        case "list": return .list
        case "show": return .show(pack: try text(.pack))
        case "create": return .create(name: try text(.name))
        case "rename": return .rename(pack: try text(.pack), name: try text(.name))
        case "delete": return .delete(pack: try text(.pack))
        case "copy": return .copy(pack: try text(.pack), name: try fields.string(Field.name.rawValue, required: false))
        case "add": return .add(pack: try text(.pack), question: try question())
        case "edit": return .edit(pack: try text(.pack), number: try number(), question: try question())
        case "remove": return .remove(pack: try text(.pack), number: try number())
        case "import":
            guard let file = try fields.string(Field.file.rawValue, required: false) else {
                throw fields.error(.badField, "Name a file.")
            }
            return .importFile(file)
        case "export":
            guard let file = try fields.string(Field.file.rawValue, required: false) else {
                throw fields.error(.badField, "Name a file.")
            }
            return .export(pack: try text(.pack), file: file)
        default:
            throw fields.error(
                .unknownCommand,
                "Unknown packs action \"\(action)\". Actions: \(actions.joined(separator: ", ")).")
        }
    }

    /// The client message that asks for this.
    public var message: ClientMessage {
        func question(_ question: PackQuestion) -> JSONValue {
            [
                Field.difficulty.rawValue: .string(question.difficulty), Field.text.rawValue: .string(question.text),
                Field.answer.rawValue: .string(question.answer),
            ]
        }
        var fields = JSONObject()
        let action: String
        switch self {
        case .list: action = "list"
        case .show(let pack):
            action = "show"
            fields[Field.pack.rawValue] = .string(pack)
        case .create(let name):
            action = "create"
            fields[Field.name.rawValue] = .string(name)
        case .rename(let pack, let name):
            action = "rename"
            fields[Field.pack.rawValue] = .string(pack)
            fields[Field.name.rawValue] = .string(name)
        case .delete(let pack):
            action = "delete"
            fields[Field.pack.rawValue] = .string(pack)
        case .copy(let pack, let name):
            action = "copy"
            fields[Field.pack.rawValue] = .string(pack)
            if let name { fields[Field.name.rawValue] = .string(name) }
        case .add(let pack, let added):
            action = "add"
            fields[Field.pack.rawValue] = .string(pack)
            fields[Field.question.rawValue] = question(added)
        case .edit(let pack, let number, let changed):
            action = "edit"
            fields[Field.pack.rawValue] = .string(pack)
            fields[Field.number.rawValue] = .int(Int64(number))
            fields[Field.question.rawValue] = question(changed)
        case .remove(let pack, let number):
            action = "remove"
            fields[Field.pack.rawValue] = .string(pack)
            fields[Field.number.rawValue] = .int(Int64(number))
        case .importFile(let file):
            action = "import"
            fields[Field.file.rawValue] = .string(file)
        case .export(let pack, let file):
            action = "export"
            fields[Field.pack.rawValue] = .string(pack)
            fields[Field.file.rawValue] = .string(file)
        }
        return .packs(action: action, fields: fields)
    }
}

/// What is asked of the Queen's command library (`{"type":"library","action":…}`, PROTOCOL.md §8.4).
public enum LibraryRequest: Equatable, Sendable {
    /// Every command (and the hidden built-ins too when asked).
    case list(includingHidden: Bool)
    case search(String)
    /// A new command; `kind` and `difficulty` as written (the host checks them).
    case add(text: String, kind: String?, difficulty: String?)
    case edit(id: String, text: String?, kind: String?, difficulty: String?)
    case delete(id: String)
    case hide(id: String)
    case unhide(id: String)

    /// The actions, for help and errors.
    public static let actions = ["list", "search", "add", "edit", "delete", "hide", "unhide"]

    private enum Field: String {
        case hidden, text, kind, difficulty, commandId, command
    }

    /// Whether anyone joined may ask it (listing and searching), not only the operator.
    public var isReading: Bool {
        switch self {
        case .list, .search: true
        default: false
        }
    }

    /// Decodes an action and its fields with clear errors.
    public static func decode(action: String, fields object: JSONObject) throws(ProtocolError) -> LibraryRequest {
        let fields = MessageFields(object: object)
        func optional(_ field: Field) throws(ProtocolError) -> String? {
            try fields.string(field.rawValue, required: false)
        }
        func id() throws(ProtocolError) -> String {
            if let id = try optional(.commandId) { return id }
            return try optional(.command) ?? ""
        }
        switch action {
        case "list": return .list(includingHidden: try fields.bool(Field.hidden.rawValue) ?? false)
        case "search": return .search(try optional(.text) ?? "")
        case "add":
            return .add(
                text: try optional(.text) ?? "", kind: try optional(.kind), difficulty: try optional(.difficulty))
        case "edit":
            return .edit(
                id: try id(), text: try optional(.text), kind: try optional(.kind),
                difficulty: try optional(.difficulty))
        case "delete": return .delete(id: try id())
        case "hide": return .hide(id: try id())
        case "unhide": return .unhide(id: try id())
        default:
            throw fields.error(
                .unknownCommand,
                "Unknown library action \"\(action)\". Actions: \(actions.joined(separator: ", ")).")
        }
    }

    /// The client message that asks for this.
    public var message: ClientMessage {
        var fields = JSONObject()
        func set(_ field: Field, _ value: String?) { if let value { fields[field.rawValue] = .string(value) } }
        let action: String
        switch self {
        case .list(let hidden):
            action = "list"
            if hidden { fields[Field.hidden.rawValue] = true }
        case .search(let text):
            action = "search"
            set(.text, text)
        case .add(let text, let kind, let difficulty):
            action = "add"
            set(.kind, kind)
            set(.difficulty, difficulty)
            set(.text, text)
        case .edit(let id, let text, let kind, let difficulty):
            action = "edit"
            set(.commandId, id)
            set(.text, text)
            set(.kind, kind)
            set(.difficulty, difficulty)
        case .delete(let id):
            action = "delete"
            set(.commandId, id)
        case .hide(let id):
            action = "hide"
            set(.commandId, id)
        case .unhide(let id):
            action = "unhide"
            set(.commandId, id)
        }
        return .library(action: action, fields: fields)
    }
}
