import Common

/// The operator's options for a station hunt.
public struct HuntSettings: Codable, Sendable, Equatable, Hashable {
    /// Which way teams go round.
    public enum Order: String, Codable, Sendable, CaseIterable {
        /// Every team follows the hunt's own order.
        case fixed
        /// Each team starts at a different station and goes round, so teams do not crowd one room.
        case staggered
    }

    /// The hunt lengths an operator may set, in minutes.
    public static let minutesRange = 1...600
    /// The penalties an operator may set for a wrong pick or answer, in seconds.
    public static let penaltySecondsRange = 0...3600

    /// Which way teams go round.
    public var order: Order
    /// How long the hunt lasts, in minutes.
    public var minutes: Int
    /// Seconds added to a team's time for each wrong pick or answer.
    public var penaltySeconds: Int
    /// Wrong check-in codes in a row that lock a team's check-ins.
    public var wrongCodeLimit: Int
    /// How long such a lock lasts, in seconds.
    public var lockSeconds: Int
    /// Whether small spelling mistakes in typed answers are forgiven (`AnswerJudge`).
    public var isForgiving: Bool
    /// How long a team formed while the hunt runs waits before its first check-in, in seconds, so that throwaway
    /// teams cannot multiply the guesses at check-in codes; nil (journals from before the rule) is 0.
    public var lateTeamWaitSeconds: Int?

    /// The wait of a team formed mid-hunt that new games use, in seconds.
    public static let defaultLateTeamWaitSeconds = 60
    /// The waits an operator may set for teams formed mid-hunt, in seconds.
    public static let lateTeamWaitSecondsRange = 0...3600

    /// Creates settings: fixed order, 45 minutes, 30-second penalties, a 30-second lock after 5 wrong codes.
    public init(
        order: Order = .fixed, minutes: Int = 45, penaltySeconds: Int = 30, wrongCodeLimit: Int = 5,
        lockSeconds: Int = 30, isForgiving: Bool = true, lateTeamWaitSeconds: Int? = nil
    ) {
        self.order = order
        self.minutes = minutes
        self.penaltySeconds = penaltySeconds
        self.wrongCodeLimit = wrongCodeLimit
        self.lockSeconds = lockSeconds
        self.isForgiving = isForgiving
        self.lateTeamWaitSeconds = lateTeamWaitSeconds
    }

    /// Refuses values outside their ranges.
    public func validate() throws(RuleError) {
        guard Self.minutesRange.contains(minutes) else {
            throw RuleError(.invalidSettings, "A hunt lasts 1 to 600 minutes, not \(minutes).")
        }
        guard Self.penaltySecondsRange.contains(penaltySeconds) else {
            throw RuleError(.invalidSettings, "A penalty is 0 to 3600 seconds, not \(penaltySeconds).")
        }
        guard Self.lateTeamWaitSecondsRange.contains(lateTeamWaitSeconds ?? 0) else {
            throw RuleError(
                .invalidSettings, "A new team's wait is 0 to 3600 seconds, not \(lateTeamWaitSeconds ?? 0).")
        }
        guard wrongCodeLimit >= 1, (0...3600).contains(lockSeconds) else {
            throw RuleError(.invalidSettings, "The code lock needs at least one try and 0 to 3600 seconds.")
        }
    }
}

extension StationHunt {
    /// Where the hunt is.
    public enum Phase: String, Codable, Sendable, Equatable, Hashable {
        /// Waiting for `start`.
        case notStarted
        /// Teams are out hunting.
        case running
        /// Every team finished or time ran out; the final ranking was shown.
        case finished
    }

    /// Where one team is on its route.
    public enum Stage: String, Codable, Sendable, Equatable, Hashable {
        /// Following the clue to its next station.
        case travelling
        /// Checked in at the station, solving its task.
        case solving
        /// Every station solved.
        case finished
    }

    /// Everything that can happen to a hunt; the host journals these for replay.
    public enum Event: SteerableEvent, Sendable, Equatable, Hashable {
        /// The operator starts the hunt: every team gets its first clue.
        case start
        /// A team joins mid-hunt: it gets a route and its first clue.
        case addTeam(String)
        /// A team types the code posted at a station.
        case checkIn(team: String, code: String)
        /// A team picks word `choice` (0-based, in the order it was shown) of its station's puzzle.
        case pick(team: String, choice: Int)
        /// A team types an answer to its station's question (or one of its puzzle's words).
        case answer(team: String, text: String)
        /// A team asks for its station's next hint.
        case hint(team: String)
        /// The host's clock reached `nextDeadline`.
        case tick
        /// The operator steers: `pause`/`resume` freeze and restart the hunt clock, `end` stops the hunt.
        case steer(Steering)
        /// The host started again after a stop: the hunt clock stands still until a player is back (`playerBack`),
        /// since nobody can play until then.
        case hostRestarted
        /// A player joined or came back: a clock held since a host restart runs again.
        case playerBack
    }

    /// What the host should announce.
    public enum Effect: Sendable, Equatable, Hashable {
        /// A team's next clue (for that team only).
        case clue(team: String, Clue)
        /// A team checked in: its station's task (for that team only).
        case task(team: String, Task)
        /// A wrong code counted: the code as typed (upper-case letters and digits), tries left before the lock, or
        /// when the lock ends (for that team only; the operators may see the code).
        case wrongCode(team: String, code: String, attemptsLeft: Int, lockedUntil: Instant?)
        /// A wrong pick or answer (the word picked or the text typed) cost `penaltyMs` (for that team only).
        case wrongAnswer(team: String, answer: String, penaltyMs: Int64, penaltiesMs: Int64)
        /// A hint, for its cost (for that team only).
        case hint(team: String, HintShown)
        /// A team solved a station (the details for that team; who and when for the operators).
        case solved(team: String, Solved)
        /// What changed in the public progress: one row per changed team.
        case progress([Progress])
        /// The hunt is over: the final ranking.
        case scoreboard([Ranked])
        /// The hunt clock is frozen.
        case paused
        /// The hunt clock runs again, ending at `endsAt`.
        case resumed(endsAt: Instant)
    }

    /// A team's clue to its next station.
    public struct Clue: Codable, Sendable, Equatable, Hashable {
        /// The station's place on the team's route (1-based).
        public var number: Int
        /// How many stations the hunt has.
        public var total: Int
        /// The riddle.
        public var text: String
    }

    /// A station's task as its team sees it after checking in.
    public struct Task: Codable, Sendable, Equatable, Hashable {
        /// What to solve.
        public enum Kind: Codable, Sendable, Equatable, Hashable {
            /// Pick the odd one out of these four words.
            case puzzle(words: [String])
            /// Type the answer to this question, of `letters` letters.
            case question(text: String, letters: Int)
        }

        /// The station's place on the team's route (1-based).
        public var number: Int
        /// How many stations the hunt has.
        public var total: Int
        /// What to solve.
        public var kind: Kind
        /// How many hints the station has.
        public var hints: Int
        /// What each of those hints costs, in seconds, in order.
        public var hintCosts: [Int] = []
    }

    /// A hint as shown.
    public struct HintShown: Codable, Sendable, Equatable, Hashable {
        /// Which hint (1-based).
        public var number: Int
        /// How many the station has.
        public var total: Int
        /// What it says.
        public var text: String
        /// What it cost, in milliseconds.
        public var costMs: Int64
        /// The team's penalties now, in milliseconds.
        public var penaltiesMs: Int64
    }

    /// A solved station.
    public struct Solved: Codable, Sendable, Equatable, Hashable {
        /// The station's place on the team's route (1-based).
        public var number: Int
        /// How many stations the hunt has.
        public var total: Int
        /// The station's name.
        public var name: String
        /// What the hunt says on solving it.
        public var success: String?
        /// The right answer (the outsider, or the question's answer as written).
        public var answer: String
        /// Hunt time of the solve, in milliseconds.
        public var elapsedMs: Int64
        /// The team's penalties so far, in milliseconds.
        public var penaltiesMs: Int64
        /// Whether this was the team's last station.
        public var isLast: Bool
        /// What the team picked or typed to solve it, as it came (nil in the solve log).
        public var typed: String? = nil
    }

    /// One team's public progress.
    public struct Progress: Codable, Sendable, Equatable, Hashable {
        /// The team.
        public var team: String
        /// Stations solved.
        public var stations: Int
        /// How many stations the hunt has.
        public var total: Int
        /// Hunt time of the team's last solve (its finishing time once finished), in milliseconds.
        public var elapsedMs: Int64
        /// Its penalties so far, in milliseconds.
        public var penaltiesMs: Int64
        /// Whether it solved every station.
        public var isFinished: Bool
    }

    /// One team's line in the final ranking: by stations solved, then total time (penalties included).
    public struct Ranked: Codable, Sendable, Equatable, Hashable {
        /// Competition rank (equal stations and time share one).
        public var rank: Int
        /// The team.
        public var team: String
        /// Stations solved.
        public var stations: Int
        /// Hunt time of its last solve plus its penalties, in milliseconds.
        public var totalMs: Int64
        /// Its penalties, in milliseconds.
        public var penaltiesMs: Int64
        /// Whether it solved every station.
        public var isFinished: Bool
    }

    /// Where one team is, in full (the host's catch-up reads it; only that team may see it).
    public struct TeamState: Codable, Sendable, Equatable, Hashable {
        /// The hunt's stations in the order this team visits them.
        public var route: [Int]
        /// How many stations of the route it solved.
        public var solvedCount = 0
        /// What it is doing now.
        public var stage = Stage.travelling
        /// The current puzzle's words in the order this team sees them (while solving a puzzle).
        public var words: [String] = []
        /// How many hints of the current station it has seen.
        public var hintsShown = 0
        /// The current puzzle's words already picked wrong (each costs its penalty once).
        public var wrongPicks: [String] = []
        /// Penalties so far (wrong answers and hints), in milliseconds.
        public var penaltiesMs: Int64 = 0
        /// Hunt time of each solve, in route order.
        public var solvedAtMs: [Int64] = []
        /// Wrong codes in a row since the last lock or check-in.
        public var wrongCodes = 0
        /// Until when check-ins are locked; nil when they are not.
        public var lockedUntil: Instant?
        /// Whether the team was formed while the hunt ran (it waits `lateTeamWaitSeconds` before checking in).
        public var joinedLate = false
        /// Whether it ever checked in at a station (a late team shows in everyone's progress from then on).
        public var hasCheckedIn = false
    }
}
