import Protocol

/// Turns what the person does into the JSON the host reads (the inverse of `ClientMessageDecoding`).
enum WireEncoding {
    /// The wire object for `message`.
    static func json(_ message: ClientMessage) -> JSONValue {
        switch message {
        case .hello(let hello): return self.hello(hello)
        case .ping(let clientTime):
            var object: JSONObject = ["type": "ping"]
            if let clientTime { object["t"] = .int(clientTime) }
            return .object(object)
        case .sync(let reply):
            return .object(["type": "sync", "n": .int(reply.sequence), "h": .int(reply.hostSent),
                            "c1": .int(reply.clientReceived), "c2": .int(reply.clientSent)])
        case .buzz(let pressedAt):
            var object: JSONObject = ["type": "buzz"]
            if let pressedAt { object["t"] = .int(pressedAt) }
            return .object(object)
        case .answer(let text): return .object(["type": "answer", "text": .string(text)])
        case .shake: return .object(["type": "shake"])
        case .start(let game, let options):
            var object: JSONObject = ["type": "start", "game": .string(game)]
            for member in options where member.key != "type" && member.key != "game" { object[member.key] = member.value }
            return .object(object)
        case .next: return .object(["type": "next"])
        case .pause: return .object(["type": "pause"])
        case .resume: return .object(["type": "continue"])
        case .end: return .object(["type": "end"])
        case .kick(let name): return .object(["type": "kick", "name": .string(name)])
        case .command(let choice, let save):
            switch choice {
            case .template(let id): return .object(["type": "command", "template": .string(id), "save": .bool(save)])
            case .text(let text): return .object(["type": "command", "text": .string(text), "save": .bool(save)])
            }
        case .library(let action, let fields):
            var object: JSONObject = ["type": "library", "action": .string(action)]
            for member in fields where member.key != "type" && member.key != "action" { object[member.key] = member.value }
            return .object(object)
        case .packs(let action, let fields):
            var object: JSONObject = ["type": "packs", "action": .string(action)]
            for member in fields where member.key != "type" && member.key != "action" { object[member.key] = member.value }
            return .object(object)
        case .status: return .object(["type": "status"])
        case .scores: return .object(["type": "scores"])
        case .bye: return .object(["type": "bye"])
        case .pong: return .object(["type": "pong"])
        }
    }

    /// The `hello` object.
    static func hello(_ hello: Hello) -> JSONValue {
        var object: JSONObject = ["type": "hello", "protocol": .number(hello.protocolVersion), "room": .string(hello.room)]
        if hello.role == .player || !hello.name.isEmpty { object["name"] = .string(hello.name) }
        if hello.role == .player { object["team"] = .string(hello.team) }
        object["role"] = .string(hello.role.rawValue)
        if let key = hello.key { object["key"] = .string(key) }
        if let resume = hello.resume { object["resume"] = .string(resume) }
        object["clock"] = .bool(hello.isSyncing)
        return .object(object)
    }
}
