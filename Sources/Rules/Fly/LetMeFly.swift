/// A throw, read off the power meter at its press and in the air until `landsAt`.
public struct FlyThrow: Codable, Sendable, Equatable {
    /// Who threw.
    public var player: String
    /// Their team.
    public var team: String
    /// The phone's id.
    public var phone: String
    /// The round it was thrown in.
    public var round: Int
    /// How many throws this player had made in this game before this one.
    public var index: Int
    /// The meter's reading at the press, permille.
    public var powerPermille: Int
    /// Time in the air, ms.
    public var airMs: Int64
    /// Height reached, mm.
    public var heightMm: Int
    /// The press, host clock (the client's stamp mapped and bounded like a buzz).
    public var pressedAt: Instant
    /// When the phone comes back down.
    public var landsAt: Instant
}

/// How a throw ended, and what it was worth.
public struct FlyCatch: Codable, Sendable, Equatable {
    /// The throw.
    public var thrown: FlyThrow
    /// Clean, fumbled or dropped.
    public var quality: FlyQuality
    /// Catch press minus landing, ms; nil when nothing was pressed in time.
    public var offsetMs: Int64?
    /// The streak bonus the throw was scored with, percent.
    public var bonusPercent: Int
    /// Points won.
    public var points: Int
    /// The player's streak after this catch.
    public var streak: Int
    /// The player's game score after this catch.
    public var score: Int
}

/// Who plays, with the achievements they already hold (from the host's records).
public struct FlyEntrant: Codable, Sendable, Equatable {
    /// The player's name.
    public var name: String
    /// Their team.
    public var team: String
    /// Ids of achievements earned in earlier games (unknown ids are kept and ignored).
    public var earned: [String]

    /// Creates an entrant.
    public init(name: String, team: String, earned: [String] = []) {
        self.name = name
        self.team = team
        self.earned = earned
    }
}

/// Where one player stands in the current round.
public enum FlyTurn: Codable, Sendable, Equatable {
    /// May still throw this round.
    case waiting
    /// The phone is up.
    case inAir(FlyThrow)
    /// Caught or dropped.
    case done(FlyCatch)
    /// Did not throw before the round's clock ran out.
    case missed
}

/// One player in a game.
public struct FlyPlayer: Codable, Sendable, Equatable {
    /// The name.
    public var name: String
    /// The team.
    public var team: String
    /// The phone they picked, if they did.
    public var pickedPhone: String?
    /// Throws made this game.
    public var throwCount = 0
    /// Points this game.
    public var score = 0
    /// Consecutive clean catches above 5 m (each adds 10 % to the next throw's points).
    public var streak = 0
    /// Consecutive clean catches of any height.
    public var cleanRun = 0
    /// Drops this game.
    public var drops = 0
    /// The highest caught throw this game, mm.
    public var bestMm: Int?
    /// Every achievement ever earned, by id (earlier games included).
    public var earned: Set<String>
    /// False once removed from the room.
    public var isActive = true
    /// Away from the room (the connection dropped): a round does not wait for them, though they may still throw
    /// if they come back before its clock runs out.
    public var isAway = false
    /// Since when their phone in the air hangs where it was (the host restarted) until they are back; nil otherwise.
    public var hangsSince: Instant?
    /// This round.
    public var turn = FlyTurn.waiting
}

/// A challenge: `from` dares `to` to throw higher than `heightMm` with their next throw.
public struct FlyChallenge: Codable, Sendable, Equatable {
    /// Who challenges.
    public var from: String
    /// Who is challenged.
    public var to: String
    /// The height to beat (the challenger's best caught throw when challenging), mm.
    public var heightMm: Int
    /// The challenged player's throw count when challenged: their next throw settles it.
    public var sinceThrows: Int
}

/// How a challenge ended.
public struct FlyChallengeResult: Codable, Sendable, Equatable {
    /// The challenge.
    public var challenge: FlyChallenge
    /// The challenged throw's height, mm.
    public var heightMm: Int
    /// How it was caught.
    public var quality: FlyQuality
    /// Beaten: higher than the target and not dropped.
    public var won: Bool
}

/// One player's line on a leaderboard of this game.
public struct FlyStanding: Codable, Sendable, Equatable {
    /// The player.
    public var player: String
    /// Their team.
    public var team: String
    /// Their phone.
    public var phone: String
    /// Points.
    public var score: Int
    /// Competition rank by points (1, 1, 3).
    public var rank: Int
    /// Highest caught throw, mm (0: none yet).
    public var bestMm: Int
    /// Current streak.
    public var streak: Int
}

/// One team's line: the sum of its players.
public struct FlyTeamStanding: Codable, Sendable, Equatable {
    /// The team.
    public var team: String
    /// Its players' points together.
    public var score: Int
    /// Competition rank.
    public var rank: Int
}

/// A round opened.
public struct FlyRound: Codable, Sendable, Equatable {
    /// 1-based.
    public var number: Int
    /// Rounds in the game.
    public var of: Int
    /// Where the power meter's sweep starts, host clock.
    public var sweepStart: Instant
    /// The sweep's period, ms.
    public var periodMs: Int64
    /// When throwing closes.
    public var deadline: Instant
}

/// A round ended.
public struct FlyRoundSummary: Codable, Sendable, Equatable {
    /// Which round.
    public var number: Int
    /// Whether it was the last.
    public var isLast: Bool
    /// Who did not throw.
    public var missed: [String]
    /// The standings after it.
    public var standings: [FlyStanding]
    /// When the next round opens (nil: at the operator's `next`, or never after the last).
    public var nextRoundAt: Instant?
}

/// Let Me Fly: every player throws their phone once a round — a timed press on a sweeping power meter — and
/// catches it with a second press as it comes down. Height, catch, phone and streak make the score.
///
/// A round runs `throwing` (until its clock runs out) → `landing` (phones still up) → `between`; it ends as soon
/// as every player has caught, dropped or missed. Players who are away are not waited for (unless everyone is).
/// Everything is a function of the events and their instants.
public struct LetMeFly: SteeredMode, Codable, Sendable, Equatable {
    /// Everything that can happen to a game; journaled, so Codable.
    public enum Event: SteerableEvent, Sendable, Equatable {
        /// Opens the first round.
        case start
        /// A player joined the room mid-game, with the achievements they already hold.
        case addPlayer(FlyEntrant)
        /// A player left the room for good.
        case removePlayer(String)
        /// A player's connection dropped: they keep their place, but rounds no longer wait for them.
        case playerAway(String)
        /// A player who was away is back.
        case playerBack(String)
        /// A player picks a phone (before their first throw).
        case pickPhone(player: String, phone: String)
        /// A throw pressed at `pressedAt`.
        case throwPhone(player: String, pressedAt: Instant)
        /// A throw at a typed power (text mode), permille, up to `FlyPhysics.typedPowerMaxPermille`.
        case throwAtPower(player: String, powerPermille: Int, pressedAt: Instant)
        /// A catch pressed at `pressedAt`.
        case catchPhone(player: String, pressedAt: Instant)
        /// `from` challenges `to` to beat their best height.
        case challenge(from: String, to: String)
        /// The operator's next, pause, continue or end.
        case steer(Steering)
        /// The host's clock reached `nextDeadline`.
        case tick
        /// The host started again after a stop: the clocks wait for the first player back (like a pause) and every
        /// phone in the air hangs where it was until its thrower is back (at most `FlyPhysics.restartHoldMs`), then
        /// flies on with at least `FlyPhysics.restartLeftMs` to go.
        case hostRestarted
    }

    /// What the host must announce.
    public enum Effect: Sendable, Equatable {
        /// A round opened.
        case round(FlyRound)
        /// A player joined mid-game (the roster changed).
        case playerAdded(FlyEntrant)
        /// A player picked a phone.
        case phonePicked(player: String, phone: String)
        /// A phone went up.
        case thrown(FlyThrow)
        /// A phone that hung in the air across a host restart flies on (its thrower is back): it comes down at the
        /// throw's new `landsAt`.
        case backInAir(FlyThrow)
        /// A phone came down: caught or dropped.
        case caught(FlyCatch)
        /// The round's clock ran out (or the operator moved on): no more throws; these players missed (their streaks
        /// are over).
        case timeUp(round: Int, missed: [String])
        /// A challenge was made.
        case challenged(FlyChallenge)
        /// A challenge was settled by the challenged player's throw.
        case challengeSettled(FlyChallengeResult)
        /// A player earned an achievement for the first time ever.
        case achievement(player: String, FlyAchievement)
        /// A round ended.
        case roundOver(FlyRoundSummary)
        /// The game is over.
        case finished(players: [FlyStanding], teams: [FlyTeamStanding])
        /// The round clock and the meter are frozen (phones already up still come down).
        case paused
        /// The clocks run again, moved on by the pause.
        case resumed(round: FlyRound?, nextRoundAt: Instant?)
    }

    /// Where the game stands.
    public enum Phase: String, Codable, Sendable {
        /// Before `start`.
        case notStarted
        /// A round is open for throws.
        case throwing
        /// The round's clock ran out; phones still in the air come down.
        case landing
        /// Between rounds.
        case between
        /// Over.
        case finished
    }

    /// How the game runs.
    public let settings: FlySettings
    /// The phones on offer.
    public let phones: [FlyPhone]
    /// Everyone who plays, in the order they came.
    public private(set) var players: FlyRoster
    /// Where the game stands.
    public private(set) var phase = Phase.notStarted
    /// The current (or last) round, from 1.
    public private(set) var roundNumber = 0
    /// Where the current round's meter started, host clock.
    public private(set) var sweepStart: Instant?
    /// When the current round's throwing closes.
    public private(set) var roundDeadline: Instant?
    /// When the next round opens (between rounds).
    public private(set) var nextRoundAt: Instant?
    /// Whether the clocks run or stand still (the operator's pause).
    public var clock = GameClock()
    /// Whether the clocks stand still since a host restart (not the operator's pause) until a player is back.
    public private(set) var isHeldForRestart = false
    /// Challenges not yet settled.
    public private(set) var challenges: [FlyChallenge] = []
    /// Every throw that came down, in order.
    public private(set) var results = ChunkedList<FlyCatch>()
    /// How the last round ended (between rounds and after the game).
    public private(set) var lastSummary: FlyRoundSummary?

    /// A game for `entrants` (at least one) with `settings` and `phones` (at least one).
    public init(entrants: [FlyEntrant], settings: FlySettings = FlySettings(), phones: [FlyPhone] = FlyPhone.builtin)
        throws(RuleError)
    {
        guard !entrants.isEmpty else {
            throw RuleError(.tooFewPlayers, "Let Me Fly needs at least one player in the room.")
        }
        guard !phones.isEmpty else { throw RuleError(.badSettings, "Let Me Fly needs at least one phone.") }
        var seen: Set<String> = []
        for entrant in entrants where !seen.insert(entrant.name.lowercased()).inserted {
            throw RuleError(.duplicatePlayer, "\(entrant.name) is in the game twice.")
        }
        self.settings = settings
        self.phones = phones
        players = FlyRoster(entrants.map { FlyPlayer(name: $0.name, team: $0.team, earned: Set($0.earned)) })
    }

    // MARK: Reading

    /// The round as it was opened (its meter and clock), while one runs.
    public var currentRound: FlyRound? {
        guard phase == .throwing || phase == .landing, let sweepStart, let roundDeadline else { return nil }
        return FlyRound(
            number: roundNumber, of: settings.rounds, sweepStart: sweepStart, periodMs: settings.periodMs,
            deadline: roundDeadline)
    }

    /// The current or last round as it was opened (moved on by any pause), once one was.
    public var latestRound: FlyRound? {
        guard let sweepStart, let roundDeadline else { return nil }
        return FlyRound(
            number: roundNumber, of: settings.rounds, sweepStart: sweepStart, periodMs: settings.periodMs,
            deadline: roundDeadline)
    }

    /// The phone every player throws unless they pick another.
    public var defaultPhone: FlyPhone { FlyPhone.middle(of: phones)! }

    /// The phone with `id` (any case).
    public func phone(_ id: String) -> FlyPhone? { phones.first { $0.id == id.lowercased() } }

    /// The phone `player` throws.
    public func phone(of player: FlyPlayer) -> FlyPhone { player.pickedPhone.flatMap(phone) ?? defaultPhone }

    /// The player called `name` (any case).
    public func player(named name: String) -> FlyPlayer? { index(of: name).map { players[$0] } }

    private func index(of name: String) -> Int? { players.index(named: name) }

    /// The players by points (then best height, then name), ranked 1, 1, 3 by points.
    public var standings: [FlyStanding] {
        let ordered = players.sorted { lhs, rhs in
            if lhs.score != rhs.score { return lhs.score > rhs.score }
            if (lhs.bestMm ?? 0) != (rhs.bestMm ?? 0) { return (lhs.bestMm ?? 0) > (rhs.bestMm ?? 0) }
            return lhs.name.lowercased() < rhs.name.lowercased()
        }
        var result: [FlyStanding] = []
        for (offset, player) in ordered.enumerated() {
            let rank = offset > 0 && result[offset - 1].score == player.score ? result[offset - 1].rank : offset + 1
            result.append(
                FlyStanding(
                    player: player.name, team: player.team, phone: phone(of: player).id, score: player.score,
                    rank: rank, bestMm: player.bestMm ?? 0, streak: player.streak))
        }
        return result
    }

    /// The teams by the sum of their players' points (then in order of appearance), ranked 1, 1, 3.
    public var teamStandings: [FlyTeamStanding] {
        var order: [String] = []
        var totals: [String: (name: String, score: Int)] = [:]
        for player in players {
            let key = player.team.lowercased()
            if totals[key] == nil {
                order.append(key)
                totals[key] = (player.team, 0)
            }
            totals[key]!.score += player.score
        }
        let sorted = order.enumerated().sorted { lhs, rhs in
            let (left, right) = (totals[lhs.element]!.score, totals[rhs.element]!.score)
            return left != right ? left > right : lhs.offset < rhs.offset
        }
        var result: [FlyTeamStanding] = []
        for (offset, entry) in sorted.enumerated() {
            let total = totals[entry.element]!
            let rank = offset > 0 && result[offset - 1].score == total.score ? result[offset - 1].rank : offset + 1
            result.append(FlyTeamStanding(team: total.name, score: total.score, rank: rank))
        }
        return result
    }

    /// The earliest instant the game wants a tick: a drop to call, the round's clock, the next round.
    public var nextDeadline: Instant? {
        guard phase != .finished else { return nil }
        // One pass without a list: the host asks after every event of a hall's 1,100 players.
        var due: Instant?
        for player in players {
            if let hangsSince = player.hangsSince {
                let at = hangsSince.advanced(byMilliseconds: FlyPhysics.restartHoldMs)
                due = min(due ?? at, at)
            } else if case .inAir(let thrown) = player.turn {
                let at = thrown.landsAt.advanced(byMilliseconds: FlyPhysics.catchGraceMs)
                due = min(due ?? at, at)
            }
        }
        if !isPaused {
            if phase == .throwing, let roundDeadline { due = min(due ?? roundDeadline, roundDeadline) }
            if phase == .between, let nextRoundAt { due = min(due ?? nextRoundAt, nextRoundAt) }
        }
        return due
    }

    // MARK: Events

    /// Applies `event` (not `pause` or `continue`: `apply` does those) as seen at `now` on a copy, keeping it
    /// only when accepted.
    public mutating func play(_ event: Event, at now: Instant) throws(RuleError) -> [Effect] {
        guard phase != .finished else { throw RuleError(.gameOver, "This game of Let Me Fly is over.") }
        // A hall's players and results are chunked lists, so this copy costs the chunks the event changes.
        var copy = self
        let effects = try copy.applying(event, at: now)
        self = copy
        return effects
    }

    private mutating func applying(_ event: Event, at now: Instant) throws(RuleError) -> [Effect] {
        switch event {
        case .start:
            guard phase == .notStarted else { throw RuleError(.alreadyStarted, "Let Me Fly has already started.") }
            return openRound(at: now)
        case .addPlayer(let entrant):
            guard index(of: entrant.name) == nil else {
                throw RuleError(.duplicatePlayer, "\(entrant.name) is already in this game.")
            }
            players.append(FlyPlayer(name: entrant.name, team: entrant.team, earned: Set(entrant.earned)))
            return [.playerAdded(entrant)]
        case .removePlayer(let name):
            guard let index = index(of: name) else { throw unknown(name) }
            players[index].isActive = false
            return settle(at: now)
        case .playerAway(let name):
            let index = try activePlayer(name)
            guard !players[index].isAway else { throw RuleError(.wrongPhase, "\(name) is already away.") }
            players[index].isAway = true
            return settle(at: now)
        case .playerBack(let name):
            let index = try activePlayer(name)
            guard players[index].isAway else { throw RuleError(.wrongPhase, "\(name) is not away.") }
            players[index].isAway = false
            // The first player back lets the clocks held since a restart run again, then their phone flies on.
            var effects: [Effect] = []
            if isHeldForRestart {
                isHeldForRestart = false
                shiftDeadlines(byMilliseconds: try clock.resume(at: now))
                effects += resumedEffects(at: now)
            }
            return effects + flyOn(index, at: now)
        case .pickPhone(let name, let id):
            let index = try activePlayer(name)
            guard let phone = phone(id) else {
                let ids = phones.map(\.id).joined(separator: ", ")
                throw RuleError(.unknownPhone, "There is no phone \"\(id)\". Phones: \(ids).")
            }
            guard players[index].throwCount == 0 else {
                throw RuleError(.phoneLocked, "You keep the phone you first threw for the whole game.")
            }
            players[index].pickedPhone = phone.id
            return [.phonePicked(player: players[index].name, phone: phone.id)]
        case .throwPhone(let name, let pressedAt):
            return try throwPhone(try activePlayer(name), pressedAt: pressedAt, at: now)
        case .throwAtPower(let name, let power, let pressedAt):
            guard (1...FlyPhysics.typedPowerMaxPermille).contains(power) else {
                let most = FlyPhysics.typedPowerMaxPermille / 10
                throw RuleError(
                    .badField, "A typed throw's power is 1 to \(most) %: t \(most) is the strongest (t 60: 60 %).")
            }
            return try throwPhone(try activePlayer(name), pressedAt: pressedAt, typedPower: power, at: now)
        case .catchPhone(let name, let pressedAt):
            let index = try activePlayer(name)
            // A phone still hanging (no `playerBack` came) flies on from here; the press was no catch of it.
            if players[index].hangsSince != nil { return flyOn(index, at: now) }
            guard case .inAir(let thrown) = players[index].turn else {
                switch players[index].turn {
                case .waiting: throw RuleError(.notInAir, "Your phone is not in the air: throw it first.")
                default: throw RuleError(.notInAir, "Your phone already came down this round.")
                }
            }
            let press = max(pressedAt, thrown.pressedAt)
            return resolve(index, thrown, offsetMs: thrown.landsAt.milliseconds(until: press), at: now)
                + settle(at: now)
        case .challenge(let from, let to):
            return try challenge(from: from, to: to)
        case .tick:
            var effects: [Effect] = []
            // A phone whose thrower did not come back in time flies on without them.
            for index in players.indices {
                if let hangsSince = players[index].hangsSince,
                    now >= hangsSince.advanced(byMilliseconds: FlyPhysics.restartHoldMs)
                {
                    effects += flyOn(index, at: now)
                }
            }
            for index in players.indices {
                guard players[index].hangsSince == nil, case .inAir(let thrown) = players[index].turn,
                    now >= thrown.landsAt.advanced(byMilliseconds: FlyPhysics.catchGraceMs)
                else { continue }
                effects += resolve(index, thrown, offsetMs: nil, at: now)
            }
            return effects + settle(at: now)
        case .steer(let command):
            return try steer(command, at: now)
        case .hostRestarted:
            for index in players.indices where players[index].hangsSince == nil {
                if case .inAir = players[index].turn { players[index].hangsSince = now }
            }
            // Nobody can throw until someone is back: the round's clock waits, like a pause (a paused game stays so).
            if phase != .notStarted, !isPaused {
                try clock.pause(at: now)
                isHeldForRestart = true
            }
            return []
        }
    }

    /// Lets a phone that hung across a host restart fly on from `now`, as a pause would: it has as long left as when
    /// it began to hang (at least `FlyPhysics.restartLeftMs`, so that it can be caught).
    private mutating func flyOn(_ index: Int, at now: Instant) -> [Effect] {
        guard let hangsSince = players[index].hangsSince, case .inAir(var thrown) = players[index].turn else {
            return []
        }
        players[index].hangsSince = nil
        let left = max(hangsSince.milliseconds(until: thrown.landsAt), FlyPhysics.restartLeftMs)
        let shift = thrown.landsAt.milliseconds(until: now.advanced(byMilliseconds: left))
        thrown.pressedAt = thrown.pressedAt.advanced(byMilliseconds: shift)
        thrown.landsAt = thrown.landsAt.advanced(byMilliseconds: shift)
        players[index].turn = .inAir(thrown)
        return [.backInAir(thrown)]
    }

    private func unknown(_ name: String) -> RuleError {
        RuleError(.unknownPlayer, "\(name) is not playing this game of Let Me Fly.")
    }

    private func activePlayer(_ name: String) throws(RuleError) -> Int {
        guard let index = index(of: name), players[index].isActive else { throw unknown(name) }
        return index
    }

    private mutating func throwPhone(_ index: Int, pressedAt: Instant, typedPower: Int? = nil, at now: Instant)
        throws(RuleError) -> [Effect]
    {
        if isPaused { throw RuleError(.paused, "The game is paused; throw when it continues.") }
        guard phase == .throwing, let sweepStart, let roundDeadline else {
            throw RuleError(.roundClosed, "No round is open for throws right now.")
        }
        guard players[index].turn == .waiting else {
            throw RuleError(.alreadyThrown, "You already threw this round; one throw a round.")
        }
        // Like a buzz, the press never counts before the round opened (nor after it arrived).
        let press = min(max(pressedAt, sweepStart), now)
        guard press < roundDeadline else { throw RuleError(.roundClosed, "Time is up for this round.") }
        let player = players[index]
        let power =
            typedPower ?? FlyPhysics.powerPermille(at: press, sweepStart: sweepStart, periodMs: settings.periodMs)
        let airMs = FlyPhysics.airMilliseconds(
            speed: FlyPhysics.launchSpeed(powerPermille: power, topSpeed: settings.topSpeed))
        let thrown = FlyThrow(
            player: player.name, team: player.team, phone: phone(of: player).id, round: roundNumber,
            index: player.throwCount, powerPermille: power, airMs: airMs,
            heightMm: FlyPhysics.heightMillimetres(airMs: airMs), pressedAt: press,
            landsAt: press.advanced(byMilliseconds: airMs))
        players[index].throwCount += 1
        players[index].turn = .inAir(thrown)
        var effects: [Effect] = [.thrown(thrown)]
        if power >= 990 { effects += award(.fullPower, to: index) }
        return effects
    }

    /// Scores a throw that came down `offsetMs` from its landing (nil: no catch).
    private mutating func resolve(_ index: Int, _ thrown: FlyThrow, offsetMs: Int64?, at now: Instant) -> [Effect] {
        let phone = phone(thrown.phone) ?? defaultPhone
        let quality = FlyPhysics.quality(offsetMs: offsetMs, windowMs: phone.catchWindowMs)
        var player = players[index]
        let bonus = FlyPhysics.bonusPercent(streak: player.streak)
        let points = FlyPhysics.points(
            heightMm: thrown.heightMm, multiplierPercent: phone.multiplierPercent, bonusPercent: bonus, quality: quality
        )
        switch quality {
        case .clean:
            if FlyPhysics.extendsStreak(heightMm: thrown.heightMm) { player.streak += 1 }
            // A phone that hardly left the hand is no catch to be proud of: it neither counts nor breaks the run.
            if FlyPhysics.isRealFlight(heightMm: thrown.heightMm) { player.cleanRun += 1 }
        case .fumbled:
            player.streak = 0
            player.cleanRun = 0
        case .dropped:
            player.streak = 0
            player.cleanRun = 0
            player.drops += 1
        }
        player.score += points
        if quality != .dropped { player.bestMm = max(player.bestMm ?? 0, thrown.heightMm) }
        let result = FlyCatch(
            thrown: thrown, quality: quality, offsetMs: offsetMs, bonusPercent: bonus, points: points,
            streak: player.streak, score: player.score)
        player.turn = .done(result)
        players[index] = player
        results.append(result)

        var effects: [Effect] = [.caught(result)]
        if quality != .dropped && FlyPhysics.isRealFlight(heightMm: thrown.heightMm) {
            effects += award(.firstCatch, to: index)
            if thrown.heightMm >= 5000 { effects += award(.club5, to: index) }
            if thrown.heightMm >= 10000 { effects += award(.club10, to: index) }
            if thrown.heightMm >= 20000 { effects += award(.club20, to: index) }
            if let offsetMs, abs(offsetMs) <= FlyPhysics.perfectCatchMs { effects += award(.perfectCatch, to: index) }
        }
        if player.cleanRun >= 3 { effects += award(.safeHands, to: index) }
        if player.streak >= 5 { effects += award(.onARoll, to: index) }
        if player.drops >= 3 { effects += award(.butterfingers, to: index) }
        let priciest = phones.map(\.multiplierPercent).max() ?? 0
        if quality == .clean, phone.multiplierPercent == priciest, thrown.heightMm >= 10000 {
            effects += award(.daredevil, to: index)
        }
        for challenge in challenges where challenge.to == player.name && challenge.sinceThrows <= thrown.index {
            let won = quality != .dropped && thrown.heightMm > challenge.heightMm
            effects.append(
                .challengeSettled(
                    FlyChallengeResult(challenge: challenge, heightMm: thrown.heightMm, quality: quality, won: won)))
            if won { effects += award(.challengeWon, to: index) }
        }
        challenges.removeAll { $0.to == player.name && $0.sinceThrows <= thrown.index }
        return effects
    }

    private mutating func award(_ achievement: FlyAchievement, to index: Int) -> [Effect] {
        guard players[index].earned.insert(achievement.rawValue).inserted else { return [] }
        return [.achievement(player: players[index].name, achievement)]
    }

    private mutating func challenge(from: String, to: String) throws(RuleError) -> [Effect] {
        guard phase != .notStarted else { throw RuleError(.wrongPhase, "The game has not started yet.") }
        let challenger = try activePlayer(from)
        guard let target = index(of: to), players[target].isActive else {
            throw RuleError(.unknownPlayer, "Nobody called \"\(to)\" is playing this game.")
        }
        guard target != challenger else {
            throw RuleError(.badChallenge, "Challenge someone else: you always try to beat yourself.")
        }
        guard let best = players[challenger].bestMm else {
            throw RuleError(.noHeight, "Catch a throw first: a challenge dares someone to beat your best height.")
        }
        let made = FlyChallenge(
            from: players[challenger].name, to: players[target].name, heightMm: best,
            sinceThrows: players[target].throwCount)
        challenges.removeAll { $0.from == made.from && $0.to == made.to }
        challenges.append(made)
        return [.challenged(made)]
    }

    private mutating func steer(_ command: Steering, at now: Instant) throws(RuleError) -> [Effect] {
        switch command {
        case .next:
            if isPaused { throw RuleError(.paused, "The game is paused; continue it first.") }
            switch phase {
            case .throwing:
                return closeThrows() + settle(at: now)
            case .landing:
                throw RuleError(.roundRunning, "Phones are still in the air; the round ends when they come down.")
            case .between:
                return openRound(at: now)
            case .notStarted, .finished:
                throw RuleError(.wrongPhase, "There is no round to move on from.")
            }
        case .pause, .resume:
            return []  // `apply` pauses and continues the clock
        case .end:
            return finish()
        }
    }

    // MARK: Pause and continue

    /// A game can pause once started and until it is over.
    public func checkClockSteering(_ command: Steering) throws(RuleError) {
        guard phase != .finished else { throw RuleError(.gameOver, "This game of Let Me Fly is over.") }
        if command == .pause, phase == .notStarted { throw RuleError(.wrongPhase, "The game has not started yet.") }
    }

    /// Moves the meter's sweep, the round's clock and the next round by the time the clocks stood still (phones
    /// in the air land as they would).
    public mutating func shiftDeadlines(byMilliseconds milliseconds: Int64) {
        sweepStart = sweepStart?.advanced(byMilliseconds: milliseconds)
        roundDeadline = roundDeadline?.advanced(byMilliseconds: milliseconds)
        nextRoundAt = nextRoundAt?.advanced(byMilliseconds: milliseconds)
    }

    /// The operator paused.
    public var pausedEffects: [Effect] { [.paused] }

    /// The clocks run again: the round as it now runs, or the wait for the next, and a round whose players all
    /// finished during the pause ends.
    public mutating func resumedEffects(at now: Instant) -> [Effect] {
        isHeldForRestart = false  // the operator's `continue` also ends a hold for a restart
        return [.resumed(round: currentRound, nextRoundAt: phase == .between ? nextRoundAt : nil)] + settle(at: now)
    }

    // MARK: Rounds

    private mutating func openRound(at now: Instant) -> [Effect] {
        roundNumber += 1
        phase = .throwing
        sweepStart = now
        roundDeadline = now.advanced(bySeconds: settings.roundSeconds)
        nextRoundAt = nil
        for index in players.indices { players[index].turn = .waiting }
        return [.round(currentRound!)]
    }

    /// No more throws this round: whoever has not thrown missed it (and their streak is over).
    private mutating func closeThrows() -> [Effect] {
        phase = .landing
        var missed: [String] = []
        for index in players.indices where players[index].turn == .waiting {
            players[index].turn = .missed
            players[index].streak = 0
            players[index].cleanRun = 0
            missed.append(players[index].name)
        }
        return [.timeUp(round: roundNumber, missed: missed)]
    }

    /// Moves the round on when its clock ran out or everyone is done; opens the next round when its time came.
    private mutating func settle(at now: Instant) -> [Effect] {
        guard !isPaused else { return [] }
        var effects: [Effect] = []
        if phase == .throwing, let roundDeadline, now >= roundDeadline { effects += closeThrows() }
        if phase == .throwing || phase == .landing {
            // The round waits for the players who are here; when everyone is away, the clock decides.
            // One pass (after every catch of a hall's 1,100 players): who is here, who may still throw, what is up.
            var isAnyoneHere = false
            var isWaitingHere = false
            var isWaitingAway = false
            var isInAir = false
            for player in players {
                if case .inAir = player.turn { isInAir = true }
                guard player.isActive else { continue }
                if !player.isAway { isAnyoneHere = true }
                if player.turn == .waiting {
                    if player.isAway { isWaitingAway = true } else { isWaitingHere = true }
                }
            }
            let isWaiting = isWaitingHere || (isWaitingAway && !isAnyoneHere)
            if !isWaiting && !isInAir { effects += endRound(at: now) }
        }
        if phase == .between, let nextRoundAt, now >= nextRoundAt { effects += openRound(at: now) }
        return effects
    }

    private mutating func endRound(at now: Instant) -> [Effect] {
        for index in players.indices where players[index].turn == .waiting {
            players[index].turn = .missed
            players[index].streak = 0
            players[index].cleanRun = 0
        }
        phase = .between
        let isLast = roundNumber >= settings.rounds
        nextRoundAt = isLast || settings.breakSeconds == 0 ? nil : now.advanced(bySeconds: settings.breakSeconds)
        let missed = players.filter { $0.isActive && $0.turn == .missed }.map(\.name)
        let summary = FlyRoundSummary(
            number: roundNumber, isLast: isLast, missed: missed, standings: standings, nextRoundAt: nextRoundAt)
        lastSummary = summary
        var effects: [Effect] = [.roundOver(summary)]
        if isLast { effects += finish() }
        return effects
    }

    private mutating func finish() -> [Effect] {
        phase = .finished
        clock.stop()
        nextRoundAt = nil
        return [.finished(players: standings, teams: teamStandings)]
    }
}
