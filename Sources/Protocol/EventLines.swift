/// One readable line per game event, shared by the host's plain-text mode and the client's piped mode.
///
/// It reads only the message and who is looking, so a person at `nc` and a script reading `partyline`
/// see the same words for the same event. Session messages that differ by side (welcome, lobby) stay
/// with their callers.
public enum EventLines {
    /// Who is reading: decides "your turn" and "you are the Queen".
    public struct Perspective: Sendable {
        /// The reader's team, when it plays in one.
        public var team: String?
        /// The reader's player name, when it is a player.
        public var name: String?

        /// Creates a perspective.
        public init(team: String? = nil, name: String? = nil) {
            self.team = team
            self.name = name
        }
    }

    /// Whole seconds, rounded up: `12 s`.
    public static func seconds(_ milliseconds: Int64?) -> String {
        guard let milliseconds else { return "" }
        return "\((max(0, milliseconds) + 999) / 1000) s"
    }

    /// Letters spread out so they read at a glance: `A P P L E`.
    public static func spaced(_ letters: String) -> String {
        letters.map { $0 == " " ? " " : String($0) }.joined(separator: " ")
    }

    /// The strings of an array, joined with commas.
    public static func names(_ value: JSONValue?) -> String {
        (value?.arrayValue ?? []).compactMap(\.stringValue).joined(separator: ", ")
    }

    /// `Red +0 ms · Blue +37 ms ±4 (tie)` from a `buzzed` message's `entries` (or its plain `order`).
    public static func buzzOrder(_ message: JSONValue) -> String {
        let entries = message["entries"]?.arrayValue ?? []
        guard !entries.isEmpty else { return names(message["order"]) }
        return entries.compactMap { entry -> String? in
            guard let team = entry["team"]?.stringValue else { return nil }
            return buzzEntry(team: team, offsetMs: entry["offsetMs"]?.intValue ?? 0,
                             uncertaintyMs: entry["uncertaintyMs"]?.intValue ?? 0, isTied: entry["tie"]?.boolValue == true)
        }.joined(separator: " · ")
    }

    /// One team's place in the buzz order: `Blue +37 ms ±4`, `Red +0 ms (tie)`.
    public static func buzzEntry(team: String, offsetMs: Int64, uncertaintyMs: Int64, isTied: Bool) -> String {
        "\(team) +\(offsetMs) ms" + (uncertaintyMs > 0 && offsetMs > 0 ? " ±\(uncertaintyMs)" : "") + (isTied ? " (tie)" : "")
    }

    /// `#1 Red 300 · #2 Blue 0` from standings entries (`team` or `player`, `score`, `rank`); `unit` follows each score.
    public static func standings(_ value: JSONValue?, unit: String = "") -> String {
        (value?.arrayValue ?? []).compactMap { entry -> String? in
            guard let who = entry["team"]?.stringValue ?? entry["player"]?.stringValue else { return nil }
            return "\(entry["rank"]?.intValue.map { "#\($0) " } ?? "")\(who) \(entry["score"]?.intValue ?? 0)\(unit)"
        }.joined(separator: " · ")
    }

    /// The line for a game or session event as `perspective` sees it; nil for messages this renderer leaves to its caller.
    public static func line(for message: JSONValue, as perspective: Perspective) -> String? {
        let type = message["type"]?.stringValue ?? ""
        switch type {
        case "error": return "! " + (message["message"]?.stringValue ?? "The host refused that.")
        case "ok": return message["message"]?.stringValue
        case "notice": return "* " + (message["message"]?.stringValue ?? "")
        case "closing": return "*** " + (message["reason"]?.stringValue ?? "The host closed the connection.")
        case "status": return message["summary"]?.stringValue
        case "game":
            if message["game"]?.stringValue == "queen" {
                return "=== The Queen's game! Players: \(names(message["players"])) ==="
            }
            return "=== Shaky Words! \(message["questions"]?.intValue ?? 0) questions. Teams: \(names(message["teams"])) ==="
        case "question":
            let number = message["number"]?.intValue ?? 0, total = message["of"]?.intValue ?? 0
            return "Question \(number)/\(total) (\(message["difficulty"]?.stringValue ?? ""), \(message["points"]?.intValue ?? 0) points): "
                + "\(message["text"]?.stringValue ?? "")  Letters: \(spaced(message["letters"]?.stringValue ?? ""))"
                + "  · buzz clock \(seconds(message["remainingMs"]?.intValue))"
        case "buzzed":
            return "Buzz order: \(buzzOrder(message)) · buzz clock \(seconds(message["remainingMs"]?.intValue))"
        case "turn":
            let team = message["team"]?.stringValue ?? ""
            if let mine = perspective.team, mine.lowercased() == team.lowercased() {
                return ">>> Your turn, team \(team)! Type your answer (\(seconds(message["remainingMs"]?.intValue)))."
            }
            return "Team \(team) is answering (\(seconds(message["remainingMs"]?.intValue)))."
        case "hint":
            return "Hint: \(spaced(message["letters"]?.stringValue ?? "")) (\(message["fixed"]?.intValue ?? 0) in place, "
                + "now worth \(message["points"]?.intValue ?? 0) points)"
        case "result":
            let team = message["team"]?.stringValue ?? ""
            if message["correct"]?.boolValue == true {
                let spelling = message["misspelled"]?.boolValue == true ? " (small misspelling forgiven)" : ""
                return "✔ \(team) is right\(spelling)! +\(message["points"]?.intValue ?? 0)"
            }
            return "✘ \(team): " + (message["timedOut"]?.boolValue == true ? "time is up." : "wrong.")
        case "reveal":
            let next = message["nextInMs"]?.intValue.map { " Next question in \(seconds($0))." } ?? ""
            return "The answer was: \(message["answer"]?.stringValue ?? "")." + " Scores: \(standings(message["scores"])).\(next)"
        case "scoreboard", "scores":
            let list = message["ranking"]
            if message["final"]?.boolValue == true { return "=== Final scoreboard: " + standings(list, unit: " points") + " ===" }
            let shown = standings(list)
            return "Scores: " + (shown.isEmpty ? "none yet" : shown)
        case "paused": return "Paused by the operator."
        case "resumed": return "The game continues."
        case "ended": return "=== Game over. \(message["reason"]?.stringValue ?? "") ==="
        case "round":
            let queen = message["queen"]?.stringValue ?? ""
            let who = perspective.name == queen
                ? "YOU are the Queen! Browse with `commands [TEXT]`, then `pick ID` or `order TEXT`." : "The Queen is \(queen)."
            return "--- Round \(message["number"]?.intValue ?? 0) --- \(who) Commitment: \(message["commitment"]?.stringValue ?? "")"
        case "secret":
            return ">>> Your secret number: \(message["number"]?.intValue ?? 0) <<< (tell nobody)"
        case "order":
            return "The Queen commands: \(message["text"]?.stringValue ?? "") (reveal in \(seconds(message["revealInMs"]?.intValue)))"
        case "revealed":
            let numbers = (message["numbers"]?.objectValue?.members ?? []).sorted { ($0.value.intValue ?? 0) < ($1.value.intValue ?? 0) }
                .map { "No. \($0.value.intValue ?? 0) = \($0.key)" }.joined(separator: ", ")
            return "Reveal: \(numbers). Must act: \(names(message["targets"]))."
        default:
            return nil
        }
    }
}
