// A toy game mode written only from the recipe in README ("Adding a game mode"), to prove the seam: its Rules,
// its wire types, its host adapter, its client view and renderer, and one registry line per side — nothing else
// in the project had to change for it to be played (see `ToyModeTests`).

import Protocol
import Rules

@testable import Client
@testable import Host

// MARK: 1. Rules: a pure value, time as data, randomness seeded.

/// Coin toss: each round every team calls heads or tails; the coin flips when all have called or time is up.
struct CoinToss: SteeredMode, Codable, Sendable, Equatable {
    enum Side: String, Codable, Sendable { case heads, tails }

    enum Event: SteerableEvent, Equatable {
        case start
        case call(team: String, side: Side)
        case tick
        case steer(Steering)
    }

    enum Effect: Equatable {
        case round(number: Int, deadline: Instant)
        case called(team: String)
        case flipped(side: Side, winners: [String], scores: [String: Int])
        case finished(scores: [String: Int])
    }

    let teams: [String]
    let rounds: Int
    private(set) var round = 0
    private(set) var calls: [String: Side] = [:]
    private(set) var scores: [String: Int]
    private(set) var deadline: Instant?
    private(set) var isFinished = false
    /// Pause and continue come with it: `play` never sees them.
    var clock = GameClock()
    private var rng: SplitMix64

    init(teams: [String], rounds: Int, seed: UInt64) throws(RuleError) {
        guard !teams.isEmpty else { throw RuleError(.noTeams, "Coin toss needs a team.") }
        self.teams = teams
        self.rounds = rounds
        scores = Dictionary(uniqueKeysWithValues: teams.map { ($0, 0) })
        rng = SplitMix64(seed: seed)
    }

    var nextDeadline: Instant? { isFinished || isPaused ? nil : deadline }

    /// The round's clock moves on by the pause.
    mutating func shiftDeadlines(byMilliseconds milliseconds: Int64) {
        deadline = deadline?.advanced(byMilliseconds: milliseconds)
    }

    /// A coin toss announces nothing of its own on a pause (the host says `paused`).
    var pausedEffects: [Effect] { [] }

    /// Nor on a continue (the host says `resumed`).
    mutating func resumedEffects(at now: Instant) -> [Effect] { [] }

    mutating func play(_ event: Event, at now: Instant) throws(RuleError) -> [Effect] {
        guard !isFinished else { throw RuleError(.gameOver, "The coin toss is over.") }
        var copy = self
        var effects: [Effect] = []
        switch event {
        case .start:
            effects += copy.openRound(at: now)
        case .call(let team, let side):
            guard copy.scores[team] != nil else { throw RuleError(.unknownTeam, "There is no team \(team).") }
            guard copy.calls[team] == nil else { throw RuleError(.alreadyPlaying, "\(team) has called already.") }
            copy.calls[team] = side
            effects.append(.called(team: team))
            if copy.calls.count == copy.teams.count { effects += copy.flip(at: now) }
        case .tick:
            if let deadline = copy.deadline, deadline <= now { effects += copy.flip(at: now) }
        case .steer(.end):
            copy.isFinished = true
            effects.append(.finished(scores: copy.scores))
        case .steer:
            throw RuleError(.wrongPhase, "The coin toss cannot do that.")
        }
        self = copy
        return effects
    }

    private mutating func openRound(at now: Instant) -> [Effect] {
        round += 1
        calls = [:]
        deadline = now.advanced(bySeconds: 10)
        return [.round(number: round, deadline: deadline!)]
    }

    private mutating func flip(at now: Instant) -> [Effect] {
        let side: Side = rng.next() % 2 == 0 ? .heads : .tails
        let winners = teams.filter { calls[$0] == side }
        for team in winners { scores[team]! += 1 }
        var effects: [Effect] = [.flipped(side: side, winners: winners, scores: scores)]
        if round == rounds {
            isFinished = true
            deadline = nil
            effects.append(.finished(scores: scores))
        } else {
            effects += openRound(at: now)
        }
        return effects
    }
}

// MARK: 2. Wire types: one Codable struct per message, one family, the actions' codec.

enum CoinWire: GameWire {
    static let name = "coin"
    static let title = "Coin toss"
    static let startGrammar = StartGrammar(
        game: name, options: [.number("rounds", 1...20, default: 3, help: "tosses", bareWord: "ROUNDS")])

    struct Intro: GameIntro {
        static let type = "game"
        static let gameName = CoinWire.name
        var game = CoinWire.name
        var teams: [String]
        var rounds: Int
        func line(for reader: Perspective) -> String? { "=== Coin toss! \(rounds) rounds ===" }
    }

    struct Round: HostMessage {
        static let type = "round"
        var number: Int
        var remainingMs: Int64
        var deadline: Int64
        func line(for reader: Perspective) -> String? { "Round \(number): heads or tails?" }
    }

    struct Called: HostMessage {
        static let type = "called"
        var team: String
        func line(for reader: Perspective) -> String? { "\(team) has called." }
    }

    struct Score: Codable, Sendable, Equatable {
        var team: String
        var score: Int
    }

    struct Flipped: HostMessage {
        static let type = "flipped"
        var side: String
        var winners: [String]
        var scores: [Score]
        func line(for reader: Perspective) -> String? { "It is \(side)! Right: \(winners.joined(separator: ", "))" }
    }

    struct Over: HostMessage {
        static let type = "scoreboard"
        var final = true
        var ranking: [Score]
        func line(for reader: Perspective) -> String? {
            "Final: " + ranking.map { "\($0.team) \($0.score)" }.joined(separator: " · ")
        }
    }

    enum Message: DecodedFamily {
        case intro(Intro)
        case round(Round)
        case called(Called)
        case flipped(Flipped)
        case over(Over)

        static let decoder = FamilyDecoder<Message>([
            member(Intro.self, Message.intro), member(Round.self, Message.round), member(Called.self, Message.called),
            member(Flipped.self, Message.flipped), member(Over.self, Message.over),
        ])
        var message: any HostMessage {
            switch self {
            case .intro(let message): message
            case .round(let message): message
            case .called(let message): message
            case .flipped(let message): message
            case .over(let message): message
            }
        }
    }

    enum Action: GameAction {
        case call(CoinToss.Side)

        static let types = ["call"]

        static func decode(_ request: PlayRequest) throws(ProtocolError) -> Action {
            let fields = MessageFields(request)
            guard request.type == "call" else {
                throw fields.error(.unknownType, "Coin toss has no \"\(request.type)\".")
            }
            let side = try fields.requiredString("side", limit: 5)
            guard let parsed = CoinToss.Side(rawValue: side) else {
                throw fields.error(.badField, "\"side\" must be heads or tails.")
            }
            return .call(parsed)
        }

        static func parse(text line: String) -> TextAction<Action>? {
            switch splitCommand(line).verb {
            case "heads": return .action(.call(.heads))
            case "tails": return .action(.call(.tails))
            default: return nil
            }
        }

        static let textHelp = ["  heads or tails   call the coin"]

        var request: PlayRequest {
            guard case .call(let side) = self else { return PlayRequest(type: "call") }
            return PlayRequest(type: "call", fields: ["side": .string(side.rawValue)])
        }

        var pressedAt: Int64? { nil }
    }
}

// MARK: 3. Host adapter: actions → events, effects → addressed messages, catch-up from the same builders.

final class CoinHost: GameAdapter, KeepsScore {
    typealias Wire = CoinWire
    struct StartRecord: Codable {
        var teams: [String]
        var rounds: Int
        var seed: Seed
    }

    static let entry = ModeEntry(
        CoinHost.self, aliases: ["coins"],
        make: { (options, context) throws(RuleError) in
            let rounds = try options.integer("rounds")
            return try CoinHost(StartRecord(teams: context.room.teams, rounds: rounds, seed: Seed(context.seed)))
        },
        restore: { try CoinHost(JSONCoding.decode(StartRecord.self, from: $0)) })

    var mode: ModeEntry { CoinHost.entry }
    var game: CoinToss
    let record: StartRecord

    init(_ record: StartRecord) throws(RuleError) {
        self.record = record
        game = try CoinToss(teams: record.teams, rounds: record.rounds, seed: record.seed.value)
    }

    var isFinished: Bool { game.isFinished }
    var statusLine: String { "Coin toss · round \(game.round)/\(game.rounds)" }
    var startRecord: JSONValue { (try? JSONCoding.encode(record)) ?? .null }
    var scores: any HostMessage { CoinWire.Over(final: game.isFinished, ranking: ranking(game.scores)) }
    var gameLog: JSONValue { (try? JSONCoding.encode(ranking(game.scores))) ?? .null }

    func start(at now: Instant) -> Step {
        .announcing([Outgoing(.everyone, intro)]) + ((try? apply(.start, at: now)) ?? Step())
    }

    func perform(_ action: CoinWire.Action, context: PlayContext) throws(RuleError) -> Step {
        guard case .call(let side) = action else { return Step() }
        return try apply(.call(team: context.player.team, side: side), at: context.now)
    }

    private var intro: CoinWire.Intro { CoinWire.Intro(teams: game.teams, rounds: game.rounds) }

    private func ranking(_ scores: [String: Int]) -> [CoinWire.Score] {
        game.teams.map { CoinWire.Score(team: $0, score: scores[$0] ?? 0) }.sorted { $0.score > $1.score }
    }

    private func round(_ number: Int, deadline: Instant, at now: Instant) -> CoinWire.Round {
        CoinWire.Round(number: number, remainingMs: remaining(deadline, now) ?? 0, deadline: deadline.milliseconds)
    }

    /// The news the operator follows (a flip, the final scores) is an announcement: the room tells it in the
    /// operators' feed too, so the mode writes no feed line.
    func messages(for effects: [CoinToss.Effect], at now: Instant) -> [Outgoing] {
        effects.map { effect in
            switch effect {
            case .round(let number, let deadline): Outgoing(.everyone, round(number, deadline: deadline, at: now))
            case .called(let team): Outgoing(.everyone, CoinWire.Called(team: team))
            case .flipped(let side, let winners, let scores):
                .announcement(
                    .everyone, CoinWire.Flipped(side: side.rawValue, winners: winners, scores: ranking(scores)))
            case .finished(let scores): .announcement(.everyone, CoinWire.Over(ranking: ranking(scores)))
            }
        }
    }

    func snapshot(for viewer: Viewer, at now: Instant) -> [any HostMessage] {
        var messages: [any HostMessage] = [intro]
        if game.isFinished {
            messages.append(CoinWire.Over(ranking: ranking(game.scores)))
        } else if let deadline = game.deadline {
            messages.append(round(game.round, deadline: deadline, at: now))
            messages += game.teams.filter { game.calls[$0] != nil }.map { CoinWire.Called(team: $0) }
        }
        return messages
    }
}

// MARK: 4. Client view and renderer.

struct CoinView: GameScreen {
    typealias Wire = CoinWire

    var teams: [String] = []
    var rounds = 0
    var round = 0
    var deadline: Int64?
    var called: [String] = []
    var lastSide: String?
    var scores: [CoinWire.Score] = []
    var isOver = false

    init?(intro: CoinWire.Message) {
        guard case .intro(let intro) = intro else { return nil }
        teams = intro.teams
        rounds = intro.rounds
    }

    var title: String { "Coin toss · round \(round)/\(rounds)" }
    static let keyHelp = ["  h or t           call heads or tails (coin toss)"]

    mutating func apply(_ message: CoinWire.Message, to state: inout ClientState, at now: Int64) -> [ClientAction] {
        switch message {
        case .intro(let intro): teams = intro.teams
        case .round(let opened):
            round = opened.number
            deadline = opened.deadline
            called = []
        case .called(let call): called.append(call.team)
        case .flipped(let flip):
            lastSide = flip.side
            scores = flip.scores
        case .over(let over):
            scores = over.ranking
            isOver = true
        }
        return []
    }

    mutating func handle(_ key: Key, state: inout ClientState, at now: Int64) -> [ClientAction]? {
        guard state.role == .player, !isOver else { return nil }
        switch key {
        case .character("h"): return [.play(CoinWire.Action.call(.heads))]
        case .character("t"): return [.play(CoinWire.Action.call(.tails))]
        default: return nil
        }
    }

    func interpret(line: String, state: ClientState, at now: Int64) -> [ClientAction]? {
        if case .action(let action)? = CoinWire.Action.parse(text: line) { return [.play(action)] }
        return nil
    }

    func rows(_ state: ClientState, width: Int, height: Int, now: Int64, letters: LetterStyle) -> [Row] {
        var rows: [Row] = [
            ScreenRenderer.indent(isOver ? "The coin toss is over." : "Round \(round): heads or tails?", .bold)
        ]
        if let lastSide { rows.append(ScreenRenderer.indent("Last flip: \(lastSide)")) }
        if let remaining = state.remaining(until: deadline, now: now), !isOver {
            rows.append(ScreenRenderer.indent("Time left " + ScreenText.clock(remaining)))
        }
        rows.append(ScreenRenderer.indent("Called: " + called.joined(separator: ", ")))
        rows += scores.map { ScreenRenderer.indent("\($0.team) \($0.score)") }
        return rows
    }
}

// MARK: 5. The registry lines (here: the standard catalogs plus this mode, as the test builds them).

extension ModeCatalog {
    static let withCoinToss = ModeCatalog(entries: ModeCatalog.standard.entries + [CoinHost.entry])
}

extension ScreenCatalog {
    static let withCoinToss = ScreenCatalog(screens: ScreenCatalog.standard.screens + [CoinView.self])
}
