import Foundation
import Net
import Protocol
import Rules

/// Where a reply to an operator request goes: a connection (as JSON or text) or the host's console.
enum ReplyTarget {
    case connection(Connection, id: JSONValue?)
    case console
}

extension Server {
    // MARK: Lines

    func handleLine(_ bytes: [UInt8], from connection: Connection) {
        let current = now
        connection.lastHeardAt = current
        guard admitByRate(connection, at: current) else { return }
        if connection.mode == .undecided {
            let first = bytes.first { $0 != 0x20 && $0 != 0x09 && $0 != 0xEF && $0 != 0xBB && $0 != 0xBF }
            if first == UInt8(ascii: "{") {
                connection.mode = .json
            } else if HTTPProbe.isRequestLine(bytes) {
                answerHTTP(connection)
                return
            } else {
                connection.mode = .text
                if !connection.hasBanner {
                    connection.hasBanner = true
                    send(text: TextRendering.banner, to: connection)
                }
            }
        } else if connection.mode == .text, connection.role == nil, bytes.first == UInt8(ascii: "{") {
            connection.mode = .json  // a program whose first line was garbage, now speaking JSON
        }
        switch connection.mode {
        case .json:
            let line = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes  // a byte-order mark is not content
            switch ClientMessageDecoding.decode(line: line) {
            case .success(let envelope): handle(envelope.message, id: envelope.id, from: connection)
            case .failure(let error): sendError(error.code, error.message, to: connection, id: error.id)
            }
        case .text:
            guard let line = String(validating: bytes, as: UTF8.self) else {
                send(text: "! That line is not readable text (UTF-8). Type `help` to see the commands.", to: connection)
                return
            }
            handleText(line, from: connection)
        case .undecided:
            break
        }
    }

    /// Counts a message against the connection's per-second budget; false means refused.
    func admitByRate(_ connection: Connection, at current: Int64) -> Bool {
        if current - connection.rateWindowStart >= 1000 {
            if connection.rateCount <= options.messagesPerSecond { connection.rateStrikes = 0 }
            connection.rateWindowStart = current
            connection.rateCount = 0
        }
        connection.rateCount += 1
        guard connection.rateCount > options.messagesPerSecond else { return true }
        if connection.rateCount == options.messagesPerSecond + 1 {
            connection.rateStrikes += 1
            if connection.rateStrikes >= 3 {
                sendError(.rateLimited, "Too many messages for too long; closing this connection.", to: connection, id: nil)
                closeAfterFlush(connection)
                return false
            }
        }
        if connection.rateCount <= options.messagesPerSecond + 5 {
            sendError(.rateLimited, "More than \(options.messagesPerSecond) messages a second; this one was ignored.", to: connection, id: nil)
        } else if connection.rateCount > options.messagesPerSecond * 20 {
            sendError(.rateLimited, "Far too many messages; closing this connection.", to: connection, id: nil)
            closeAfterFlush(connection)
        }
        return false
    }

    func answerHTTP(_ connection: Connection) {
        let body = "This is a Partyline game host, not a web server. Join with: partyline <address>  or  nc <address> \(port)\n"
        let response = "HTTP/1.0 400 Bad Request\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body
        queue(Array(response.utf8), to: connection)
        closeAfterFlush(connection)
        log.info("Connection #\(connection.id) from \(connection.peer) spoke HTTP; answered and closed.")
    }

    // MARK: Messages

    func reply(_ message: JSONValue, to connection: Connection, id: JSONValue?) {
        guard var object = message.objectValue else { return }
        if let id { object["re"] = id }
        send(.object(object), to: connection)
    }

    func acknowledge(_ connection: Connection, id: JSONValue?) {
        guard let id else { return }
        send(.object(["type": "ok", "re": id]), to: connection)
    }

    func handle(_ message: ClientMessage, id: JSONValue?, from connection: Connection) {
        switch message {
        case .hello(let hello):
            join(hello, from: connection, id: id)
            return
        case .ping(let clientTime):
            var pong: JSONObject = ["type": "pong", "hostTime": .int(now)]
            if let clientTime { pong["t"] = .int(clientTime) }
            if let id { pong["id"] = id }
            reply(.object(pong), to: connection, id: id)
            return
        case .pong:
            return
        case .sync(let sync):
            // Only answers to probes this host sent count, each once: a client cannot invent exchanges.
            guard let sent = connection.outstandingSyncs.removeValue(forKey: sync.sequence), sent == sync.hostSent,
                  sync.clientSent >= sync.clientReceived else {
                log.debug("Connection #\(connection.id) sent a sync reply that matches no probe; ignored.")
                return
            }
            connection.clock.add(ClockSample(hostSent: sync.hostSent, clientReceived: sync.clientReceived,
                                             clientSent: sync.clientSent, hostReceived: now))
            return
        case .bye:
            send(.object(["type": "closing", "code": "bye", "reason": "Bye!"]), to: connection)
            closeAfterFlush(connection)
            return
        default:
            break
        }
        guard let role = connection.role else {
            sendError(.notJoined, "Join first: send {\"type\":\"hello\",\"room\":\"CODE\",\"name\":\"…\",\"team\":\"…\"}.", to: connection, id: id)
            return
        }
        switch message {
        case .buzz, .answer, .shake, .command:
            guard role == .player, let playerID = connection.playerID, let player = room.player(id: playerID) else {
                sendError(.forbidden, role == .board ? "A board only watches; it cannot play." : "Operators don't play; join as a player to play.",
                          to: connection, id: id)
                return
            }
            playerAction(message, player: player, connection: connection, id: id)
        case .scores:
            reply(game?.scores ?? room.lobbyMessage, to: connection, id: id)
        case .library(let action, let fields) where action == "list" || action == "search":
            libraryRequest(action, fields: fields, replyTo: .connection(connection, id: id))  // reading is for everyone (the Queen browses)
        case .library(let action, let fields) where action == "add" && role == .player && isChoosingQueen(connection):
            libraryRequest(action, fields: fields, replyTo: .connection(connection, id: id))  // the Queen may save her own command
        default:
            guard role == .admin else {
                sendError(.forbidden, "Only the operator can do that (join with role admin and the admin key).", to: connection, id: id)
                return
            }
            operate(message, replyTo: .connection(connection, id: id))
        }
    }

    func playerAction(_ message: ClientMessage, player: Player, connection: Connection, id: JSONValue?) {
        guard game != nil else {
            sendError(.noGame, "No game is running yet; wait for the operator to start one.", to: connection, id: id)
            return
        }
        let action: PlayerAction
        switch message {
        case .buzz(let stamp):
            let arrival = now
            let estimate = options.isFairnessEnabled
                ? PressEstimate.estimate(arrival: arrival, stamp: stamp, clock: connection.clock)
                : PressEstimate(pressedAt: arrival, uncertainty: 0, wasClamped: false)
            if estimate.wasClamped, let stamp {
                log.warning("\(player.name)'s buzz stamp \(stamp) (client clock) was outside what the network allows; clamped to \(estimate.pressedAt).")
            }
            action = .buzz(estimate, settleMilliseconds: options.isFairnessEnabled ? settleWindow() : 0)
        case .answer(let text): action = .answer(text)
        case .shake: action = .shake
        case .command(let choice, let save): action = .command(choice, save: save)
        default: return
        }
        perform(action, by: player, on: connection, id: id)
    }

    func perform(_ action: PlayerAction, by player: Player, on connection: Connection, id: JSONValue?) {
        guard let game else { return }
        do {
            let outgoing = try game.perform(action, by: player, at: instant)
            if case .command(.text(let text), save: true) = action {
                var library = storage.commands
                do throws(RuleError) {
                    let command = try library.add(text: text, kind: .citizenToCitizen, difficulty: .mild)
                    try saveLibrary(library)
                    send(.object(["type": "notice", "message": .string("Saved your command to the library as \(command.id).")]), to: connection)
                } catch {
                    send(.object(["type": "notice", "message": .string("Your command was used but not saved: \(error.message)")]), to: connection)
                }
            }
            acknowledge(connection, id: id)
            dispatch(outgoing)
            finishGameIfOver()
        } catch {
            sendError(code: error.code.rawValue, error.message, to: connection, id: id)
        }
    }

    /// Whether this connection's player is the Queen of the running round.
    func isChoosingQueen(_ connection: Connection) -> Bool {
        guard let queenGame = game as? QueenHost, let playerID = connection.playerID, let player = room.player(id: playerID) else { return false }
        return queenGame.game.queen == player.name
    }

    /// How long the head of the buzz queue waits for a fairer, slower buzz: 2 × the largest p95 one-way delay, 10…150 ms.
    func settleWindow() -> Int64 {
        var worst: Int64 = 0
        for connection in connections.values where connection.role == .player && connection.clock.isMeasured {
            worst = max(worst, connection.clock.p95RoundTrip)  // 2 × (p95 RTT / 2)
        }
        return min(150, max(10, worst))
    }

    // MARK: Joining

    func join(_ hello: Hello, from connection: Connection, id: JSONValue?) {
        guard connection.role == nil else {
            sendError(.alreadyJoined, "This connection already joined. Open another connection to join again.", to: connection, id: id)
            return
        }
        guard hello.room.uppercased() == room.code else {
            let shown = hello.room.isEmpty ? "no room code" : "room code \"\(hello.room)\""
            sendError(.wrongRoom, "Wrong room: \(shown). Use the code shown on the host's screen, then try again.", to: connection, id: id)
            return
        }
        var welcome: JSONObject = ["type": "welcome", "room": .string(room.code), "role": .string(hello.role.rawValue), "hostTime": .int(now)]
        switch hello.role {
        case .admin:
            guard let key = hello.key, Secrets.constantTimeEquals(key, adminKey) else {
                sendError(.badKey, "That admin key is not right. It is printed on the host's screen as admin-key=….", to: connection, id: id)
                log.warning("Connection #\(connection.id) from \(connection.peer) gave a wrong admin key.")
                return
            }
            connection.role = .admin
            log.info("An operator joined from \(connection.peer).")
        case .board:
            connection.role = .board
            log.info("A board joined from \(connection.peer).")
        case .player:
            let player: Player
            if let token = hello.resume {
                guard let existing = room.player(token: token) else {
                    sendError(.badToken, "That resume token is no longer valid (it expired or the player was removed). Join again with a name.",
                              to: connection, id: id)
                    return
                }
                player = existing
                if let oldFD = playerConnections[player.id], let old = connections[oldFD], old !== connection {
                    send(.object(["type": "closing", "code": "replaced", "reason": "You joined again from another connection."]), to: old)
                    old.playerID = nil
                    closeAfterFlush(old)
                }
                log.info("\(player.name) (\(player.team)) is back.")
            } else {
                let name = hello.name.trimmingCharacters(in: .whitespaces)
                if let problem = NameRules.problem(with: name, what: "player") {
                    sendError(.badName, problem, to: connection, id: id)
                    return
                }
                if room.player(named: name) != nil {
                    sendError(.nameTaken, "The name \"\(name)\" is taken in this room; choose another (or resume with your token).",
                              to: connection, id: id)
                    return
                }
                let team = hello.team.trimmingCharacters(in: .whitespaces).isEmpty ? name : hello.team.trimmingCharacters(in: .whitespaces)
                if let problem = NameRules.problem(with: team, what: "team") {
                    sendError(.badName, problem, to: connection, id: id)
                    return
                }
                var generator = randomGenerator
                player = room.add(name: name, team: team, token: Secrets.hex(byteCount: 16, using: &generator))
                storage.journal(["k": "join", "player": CodableBridge.json(player)])
                log.info("\(player.name) joined team \(player.team) from \(connection.peer).")
                if let game { dispatch(game.playerJoined(player, at: instant)) }
            }
            connection.role = .player
            connection.playerID = player.id
            playerConnections[player.id] = connection.socket.fd
            room.setConnected(player.id, true, at: now)
            welcome["player"] = .string(player.id)
            welcome["name"] = .string(player.name)
            welcome["team"] = .string(player.team)
            welcome["token"] = .string(player.token)
        }
        if let id { welcome["re"] = id }
        if let game { welcome["game"] = .string(game.name) }
        send(.object(welcome), to: connection)
        if connection.mode == .text { send(text: TextRendering.help(for: connection.role ?? .player), to: connection) }
        if hello.isSyncing {
            connection.isSyncing = true
            connection.pendingSyncBurst = 5
            connection.nextSyncAt = now
            sendSyncProbe(to: connection, at: now)
        }
        broadcastLobby()
        if hello.role != .player {
            send(room.lobbyMessage, to: connection)  // boards and operators get the whole list once
        } else if room.players.count > Server.fullLobbyLimit, let team = viewer(of: connection).team {
            // In a hall-sized room a player gets its own team and the head count, not every name.
            var lobby = room.lobbyMessage(only: room.members(of: team))
            lobby = lobby.objectValue.map { object in var copy = object; copy["truncated"] = true; return .object(copy) } ?? lobby
            send(lobby, to: connection)
        }
        if let game {
            for message in game.snapshot(for: viewer(of: connection), at: instant) { send(message, to: connection) }
        }
    }

    // MARK: Text mode

    func handleText(_ line: String, from connection: Connection) {
        let words = line.split(separator: " ", omittingEmptySubsequences: true)
        if words.first?.lowercased() == "resume" {
            guard words.count == 3 else { return send(text: "Usage: resume ROOM TOKEN   (the token was shown when you joined)", to: connection) }
            return join(Hello(room: String(words[1]).uppercased(), name: "", resume: String(words[2])), from: connection, id: nil)
        }
        let command = TextCommandParsing.parse(line)
        switch command {
        case .join(let code, let name, let team):
            join(Hello(room: code, name: name, team: team), from: connection, id: nil)
        case .watch(let code):
            join(Hello(room: code, name: "", role: .board), from: connection, id: nil)
        case .admin(let code, let key):
            join(Hello(room: code, name: "", role: .admin, key: key), from: connection, id: nil)
        case .help(let topic):
            send(text: TextRendering.help(for: connection.role, topic: topic), to: connection)
        case .usage(let usage):
            send(text: "Usage: " + usage, to: connection)
        case .message(let message):
            handle(message, id: nil, from: connection)
        case .freeText(let text):
            guard connection.role != nil else {
                send(text: "! Join first:  join ROOM NAME TEAM   (e.g. join ABCD Ann Red). Type `help` for more.", to: connection)
                return
            }
            if let playerID = connection.playerID, let player = room.player(id: playerID), let game,
               let action = game.interpretFreeText(text, from: player) {
                perform(action, by: player, on: connection, id: nil)
            } else {
                send(text: "! Unknown command \"\(text.prefix(40))\". Type `help` for the commands.", to: connection)
            }
        }
    }

    // MARK: Operator

    func handleConsole(_ line: String) {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return }
        switch TextCommandParsing.parse(trimmed) {
        case .message(.bye):
            environment.consoleOutput("Stopping the host…")
            isRunning = false
        case .message(let message):
            operate(message, replyTo: .console)
        case .help:
            environment.consoleOutput(TextRendering.consoleHelp)
        case .usage(let usage):
            environment.consoleOutput("Usage: " + usage)
        default:
            environment.consoleOutput("Unknown command \"\(trimmed.prefix(40))\". Type `help` for the console commands.")
        }
    }

    func answer(_ target: ReplyTarget, json: JSONValue, text: String) {
        switch target {
        case .console: environment.consoleOutput(text)
        case .connection(let connection, let id):
            if connection.mode == .text { send(text: text, to: connection) } else { reply(json, to: connection, id: id) }
        }
    }

    func refuse(_ target: ReplyTarget, code: String, message: String) {
        switch target {
        case .console: environment.consoleOutput("! " + message)
        case .connection(let connection, let id): sendError(code: code, message, to: connection, id: id)
        }
    }

    /// Reports success; `created` names a new pack or command id in a field of its own.
    func okay(_ target: ReplyTarget, _ text: String, created: String? = nil) {
        var object: JSONObject = ["type": "ok", "message": .string(text)]
        if let created { object["created"] = .string(created) }
        answer(target, json: .object(object), text: text)
    }

    /// Runs an operator command from the console or an admin connection.
    func operate(_ message: ClientMessage, replyTo target: ReplyTarget) {
        switch message {
        case .status:
            answer(target, json: statusMessage, text: statusSummary)
        case .scores:
            let scores = game?.scores ?? room.lobbyMessage
            answer(target, json: scores, text: TextRendering.render(scores, for: Viewer(role: .admin), room: room) ?? "")
        case .start(let name, let fields):
            startGame(name, fields: fields, replyTo: target)
        case .next, .pause, .resume, .end:
            guard let game else { return refuse(target, code: ErrorCode.noGame.rawValue, message: "No game is running.") }
            let action: OperatorAction = switch message {
            case .next: .next
            case .pause: .pause
            case .resume: .resume
            default: .end
            }
            do {
                let outgoing = try game.operate(action, at: instant)
                okay(target, "\(action.rawValue): done.")
                dispatch(outgoing)
                finishGameIfOver()
            } catch {
                refuse(target, code: error.code.rawValue, message: error.message)
            }
        case .kick(let name):
            guard let player = room.player(named: name) else {
                return refuse(target, code: ErrorCode.unknownPlayer.rawValue, message: "Nobody called \"\(name)\" is in the room.")
            }
            if let fd = playerConnections[player.id], let connection = connections[fd] {
                sendError(.kicked, "The operator removed you from the room.", to: connection, id: nil)
                connection.playerID = nil
                playerConnections[player.id] = nil
                closeAfterFlush(connection)
            }
            removePlayer(player, reason: "kicked by the operator")
            okay(target, "\(player.name) was removed; their resume token no longer works.")
        case .library(let action, let fields):
            libraryRequest(action, fields: fields, replyTo: target)
        case .packs(let action, let fields):
            packRequest(action, fields: fields, replyTo: target, isConsole: { if case .console = target { return true } else { return false } }())
        default:
            refuse(target, code: ErrorCode.unknownCommand.rawValue, message: "That is not an operator command.")
        }
    }

    var statusMessage: JSONValue {
        .object(["type": "status", "room": .string(room.code), "port": .number(Int(port)),
                 "connections": .number(connections.count),
                 "players": .array(room.players.map { .object(["name": .string($0.name), "team": .string($0.team), "connected": .bool($0.isConnected)]) }),
                 "game": .optional(game?.name), "summary": .string(statusSummary)])
    }

    func startGame(_ name: String, fields: JSONObject, replyTo target: ReplyTarget) {
        if let game, !game.isFinished {
            return refuse(target, code: ErrorCode.gameRunning.rawValue, message: "A game of \(game.name) is running; `end` it first.")
        }
        var generator = randomGenerator
        let context = GameContext(room: room, options: options, packs: storage.packs, commands: storage.commands,
                                  seed: generator.next())
        do {
            let newGame = try GameCatalog.make(game: name, options: fields, context: context)
            newGame.record = { [storage] event, at in storage.journalEvent(event, at: at.milliseconds) }
            storage.journal(["k": "start", "game": .string(newGame.name), "record": newGame.startRecord, "at": .int(now)])
            game = newGame
            okay(target, "Started \(newGame.name).")
            log.info("Game started: \(newGame.statusLine)")
            dispatch(newGame.start(at: instant))
            finishGameIfOver()
        } catch {
            refuse(target, code: error.code.rawValue, message: error.message)
        }
    }

    /// When the game ended: writes its log, journals the end and returns the room to the lobby.
    func finishGameIfOver() {
        guard let game, game.isFinished else { return }
        storage.saveGameLog(game.gameLog, name: game.name, log: log)
        storage.journal(["k": "gameEnd"])
        log.info("Game over: \(game.name).")
        self.game = nil
        isStatusDirty = true
    }
}

/// Recognizes a browser or other HTTP client that connected to the game port.
enum HTTPProbe {
    static let methods = ["GET", "POST", "HEAD", "PUT", "DELETE", "OPTIONS", "PATCH", "CONNECT", "TRACE"]

    /// Whether `line` looks like `METHOD /path HTTP/x.y`.
    static func isRequestLine(_ line: [UInt8]) -> Bool {
        guard line.count < 8192, let text = String(validating: line, as: UTF8.self) else { return false }
        let parts = text.split(separator: " ")
        return parts.count == 3 && methods.contains(String(parts[0])) && parts[2].hasPrefix("HTTP/")
    }
}
