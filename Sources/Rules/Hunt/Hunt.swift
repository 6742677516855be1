import Common

/// A station hunt: a named, ordered list of stations that teams walk from one to the next.
///
/// Invariants once `checked()`: 1…`maximumStations` stations with distinct names, every station with a clue, a
/// check-in code (3…8 letters or digits, upper-case, distinct within the hunt), exactly one task that keeps its
/// kind's rules, at most `maximumHints` hints with costs of 0…3600 seconds.
public struct Hunt: Codable, Sendable, Hashable, Identifiable {
    /// The most stations a hunt may have.
    public static let maximumStations = 50
    /// The most hints a station may have.
    public static let maximumHints = 5
    /// The longest hunt or station name, in characters.
    public static let maximumNameLength = 60
    /// The longest clue, hint or success message, in characters.
    public static let maximumTextLength = 400
    /// The longest hint cost, in seconds.
    public static let maximumHintSeconds = 3600
    /// How long check-in codes may be, in characters.
    public static let codeLengths = 3...8
    /// The letters generated codes use: no look-alikes (no B/8, G/6, I/1, O/0, S/5, Z/2).
    public static let codeAlphabet = Array("ACDEFHJKLMNPQRTUVWXY")
    /// How many letters a generated code has: six of twenty letters are 64 million codes (four were 160,000, which
    /// throwaway teams could try in minutes); codes written in a hunt file may still have 3 to 8 characters.
    public static let generatedCodeLength = 6

    /// A short stable identifier (`office`).
    public var id: String
    /// The name shown to people.
    public var name: String
    /// Whether the hunt ships with the host.
    public var isBuiltin: Bool
    /// The stations, in route order.
    public var stations: [Station]

    /// Creates a hunt.
    public init(id: String, name: String, isBuiltin: Bool = false, stations: [Station]) {
        self.id = id
        self.name = name
        self.isBuiltin = isBuiltin
        self.stations = stations
    }

    /// One place on the route.
    public struct Station: Codable, Sendable, Hashable {
        /// Where it is ("Kitchen"); shown to the team that solved it and on its printed sheet.
        public var name: String
        /// The riddle that leads there.
        public var clue: String
        /// The check-in code posted at the station; empty until generated. Never sent to any client.
        public var code: String
        /// What the team solves there.
        public var task: Task
        /// Hints, revealed one by one for their cost.
        public var hints: [Hint]
        /// Shown to the team when it solves the station.
        public var success: String?

        /// Creates a station.
        public init(
            name: String, clue: String, code: String = "", task: Task, hints: [Hint] = [], success: String? = nil
        ) {
            self.name = name
            self.clue = clue
            self.code = code
            self.task = task
            self.hints = hints
            self.success = success
        }
    }

    /// A station's task.
    public enum Task: Codable, Sendable, Hashable {
        /// An Odd One Out puzzle, answered with a pick.
        case puzzle(OutsiderPuzzle)
        /// A question answered by typing, judged like Shaky Words (`AnswerJudge`).
        case question(text: String, answer: String)
    }

    /// A hint and the seconds it adds to the team's time.
    public struct Hint: Codable, Sendable, Hashable {
        /// What it says.
        public var text: String
        /// Its cost, in seconds of penalty.
        public var costSeconds: Int

        /// Creates a hint.
        public init(text: String, costSeconds: Int) {
            self.text = text
            self.costSeconds = costSeconds
        }
    }

    /// Why a station of a whole hunt is refused: the 0-based station (nil for the hunt itself) and the sentence.
    public struct Problem: Error, Sendable, Hashable {
        /// The 0-based station at fault, or nil when the problem is the hunt's own.
        public var station: Int?
        /// The refusal.
        public var error: RuleError
    }

    /// A check-in code as typed, folded to compare: upper-case letters and digits only.
    public static func normalizedCode(_ code: String) -> String {
        String(code.uppercased().filter { $0.isASCII && ($0.isLetter || $0.isNumber) })
    }

    /// The hunt trimmed and with a code for every station that has none, once it keeps every rule.
    ///
    /// Missing codes are drawn from `codeAlphabet` by a generator seeded from the hunt's own text, so the same
    /// file always gets the same codes (the data folder keeps them once saved) and nobody can work a code out from
    /// what players see.
    public func checked() throws(Problem) -> Hunt {
        var hunt = self
        hunt.name = ContentText.trimmed(name)
        func fail(_ station: Int?, _ code: ErrorCode, _ message: String) -> Problem {
            Problem(station: station, error: RuleError(code, message))
        }
        guard !TextFolding.fold(hunt.name).isEmpty, hunt.name.count <= Self.maximumNameLength,
            !hunt.name.contains(where: \.isNewline)
        else {
            throw fail(nil, .badHunt, "A hunt needs a name of 1 to \(Self.maximumNameLength) characters on one line.")
        }
        if let problem = TerminalText.problem(in: hunt.name) {
            throw fail(nil, .badText, problem.refusal("The hunt's name"))
        }
        guard !stations.isEmpty else { throw fail(nil, .badHunt, "A hunt needs at least one station.") }
        guard stations.count <= Self.maximumStations else {
            throw fail(nil, .badHunt, "A hunt has at most \(Self.maximumStations) stations, not \(stations.count).")
        }
        var names: [String: Int] = [:]
        var codes: [String: Int] = [:]
        for index in hunt.stations.indices {
            var station = hunt.stations[index]
            do {
                station = try Self.checkedStation(station)
            } catch {
                throw Problem(station: index, error: error)
            }
            let key = TextFolding.fold(station.name)
            if let first = names[key] {
                throw fail(
                    index, .badHunt,
                    "Two stations are called \"\(station.name)\" (stations \(first + 1) and \(index + 1)).")
            }
            names[key] = index
            if !station.code.isEmpty {
                if let first = codes[station.code] {
                    throw fail(
                        index, .badHunt,
                        "The code \(station.code) is used twice (stations \(first + 1) and \(index + 1)).")
                }
                codes[station.code] = index
            }
            hunt.stations[index] = station
        }
        var rng = SplitMix64(seed: hunt.contentHash)
        for index in hunt.stations.indices where hunt.stations[index].code.isEmpty {
            var code = ""
            repeat {
                code = String(
                    (0..<Self.generatedCodeLength).map { _ in
                        Self.codeAlphabet[Int(rng.next() % UInt64(Self.codeAlphabet.count))]
                    })
            } while codes[code] != nil
            codes[code] = index
            hunt.stations[index].code = code
        }
        return hunt
    }

    /// One station trimmed, once it keeps every rule.
    static func checkedStation(_ station: Station) throws(RuleError) -> Station {
        var station = station
        station.name = ContentText.trimmed(station.name)
        station.clue = ContentText.trimmed(station.clue)
        station.success = station.success.map(ContentText.trimmed).flatMap { $0.isEmpty ? nil : $0 }
        guard !TextFolding.fold(station.name).isEmpty, station.name.count <= maximumNameLength,
            !station.name.contains(where: \.isNewline)
        else {
            throw RuleError(.badHunt, "A station needs a name of 1 to \(maximumNameLength) characters on one line.")
        }
        guard !TextFolding.fold(station.clue).isEmpty else {
            throw RuleError(.badHunt, "The station \"\(station.name)\" has no clue; write the riddle that leads there.")
        }
        // Every text is shown on terminals: no control character, escape or invisible formatting gets in.
        let texts =
            [("The name", station.name), ("The clue", station.clue), ("The success message", station.success ?? "")]
            + station.hints.map { ("A hint", $0.text) }
        for (what, text) in texts {
            if let problem = TerminalText.problem(in: text) {
                throw RuleError(.badText, problem.refusal("\(what) of the station \"\(station.name)\""))
            }
        }
        for text in [station.clue, station.success ?? ""] + station.hints.map(\.text)
        where text.count > maximumTextLength {
            throw RuleError(
                .badHunt, "A text of the station \"\(station.name)\" is longer than \(maximumTextLength) characters.")
        }
        let typed = station.code
        station.code = normalizedCode(typed)
        if !ContentText.trimmed(typed).isEmpty {
            guard codeLengths.contains(station.code.count),
                station.code.count == typed.filter({ !$0.isWhitespace && $0 != "-" }).count
            else {
                throw RuleError(
                    .badHunt,
                    "The code \"\(ContentText.excerpt(typed))\" of the station \"\(station.name)\" must be "
                        + "\(codeLengths.lowerBound) to \(codeLengths.upperBound) letters or digits.")
            }
        }
        switch station.task {
        case .puzzle(let puzzle):
            do {
                station.task = .puzzle(try puzzle.checked())
            } catch {
                throw RuleError(
                    error.code, "The puzzle of \"\(station.name)\": \(ContentText.lowercasingFirst(error.message))")
            }
        case .question(let text, let answer):
            let question = QuizQuestion(difficulty: .medium, text: text, answer: answer)
            do {
                try PackLibrary.checkQuestion(PackLibrary.normalized(question))
            } catch {
                throw RuleError(
                    error.code, "The question of \"\(station.name)\": \(ContentText.lowercasingFirst(error.message))")
            }
            station.task = .question(text: ContentText.trimmed(text), answer: ContentText.trimmed(answer))
        }
        guard station.hints.count <= maximumHints else {
            throw RuleError(
                .badHunt, "The station \"\(station.name)\" has \(station.hints.count) hints; at most \(maximumHints).")
        }
        for (number, hint) in station.hints.enumerated() {
            guard !TextFolding.fold(hint.text).isEmpty else {
                throw RuleError(.badHunt, "Hint \(number + 1) of \"\(station.name)\" is empty.")
            }
            guard (0...maximumHintSeconds).contains(hint.costSeconds) else {
                throw RuleError(
                    .badHunt,
                    "Hint \(number + 1) of \"\(station.name)\" costs 0 to \(maximumHintSeconds) seconds, "
                        + "not \(hint.costSeconds).")
            }
        }
        station.hints = station.hints.map { Hint(text: ContentText.trimmed($0.text), costSeconds: $0.costSeconds) }
        return station
    }

    /// A 64-bit FNV-1a hash of everything the hunt says (codes aside), stable across runs and platforms.
    var contentHash: UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        func mix(_ text: String) {
            for byte in text.utf8 {
                hash ^= UInt64(byte)
                hash = hash &* 0x0000_0100_0000_01B3
            }
            hash ^= 0xFF
            hash = hash &* 0x0000_0100_0000_01B3
        }
        mix(id)
        mix(name)
        for station in stations {
            mix(station.name)
            mix(station.clue)
            switch station.task {
            case .puzzle(let puzzle): mix(([puzzle.outsider, puzzle.link] + puzzle.words).joined(separator: "\u{1F}"))
            case .question(let text, let answer): mix(text + "\u{1F}" + answer)
            }
            for hint in station.hints { mix(hint.text + "\u{1F}\(hint.costSeconds)") }
            mix(station.success ?? "")
        }
        return hash
    }
}
