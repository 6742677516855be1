/// How a catch went: in the phone's window, within twice the window, or not at all.
public enum FlyQuality: String, Codable, Sendable, CaseIterable {
    /// Within the phone's catch window of the landing: full points.
    case clean
    /// Within twice the window: half points, and the streak is over.
    case fumbled
    /// Further off, or no press within a second of the landing: no points, and the drop counts.
    case dropped
}

/// The physics and the scoring of Let Me Fly: pure functions of presses, instants and the phone.
///
/// A throw is read off the power meter at its press; launch speed = power × top speed; the phone flies for
/// t = 2v/g and climbs h = ½ · g · (t/2)². Times are whole milliseconds and heights whole millimetres, so every
/// result is exact and the same on every replay.
public enum FlyPhysics {
    /// Standard gravity, m/s².
    public static let gravity = 9.81
    /// How long after the landing a missing catch still waits before the phone counts as dropped, ms.
    public static let catchGraceMs: Int64 = 1000
    /// How long a phone in the air when the host stopped hangs after the restart, waiting for its thrower, ms.
    public static let restartHoldMs: Int64 = 30_000
    /// The least time a phone that hung across a restart has left when it flies on, ms: enough to see it and catch.
    public static let restartLeftMs: Int64 = 3000
    /// A catch this close to the landing (either side) is perfect, ms.
    public static let perfectCatchMs: Int64 = 20
    /// The least height, mm, of a real flight: only a catch from 1 m or higher (about 0.9 s in the air; 23 % power
    /// at the default 20 m/s) earns `firstCatch`, `perfectCatch` or counts towards `safeHands`.
    public static let realFlightMm = 1000

    /// Whether a throw of `heightMm` was a real flight, which catch achievements need (see `realFlightMm`).
    public static func isRealFlight(heightMm: Int) -> Bool { heightMm >= realFlightMm }

    /// The strongest typed throw (text mode, `t 95`), permille: a little below what a skilled player hits on the
    /// sweeping meter (97–100 %), since typing needs no timing.
    public static let typedPowerMaxPermille = 950
    /// A catch typed on the host's cue (text mode, the `CATCH NOW` line sent at the landing) counts this much
    /// earlier than its line arrives: a person's reaction to a line they are waiting for, ms.
    public static let cueReactionMs: Int64 = 250

    /// The meter at `instant`, in permille: 0 where the sweep starts, 1000 half a period later, 0 again after a
    /// whole period, and so on (a triangle wave); 0 before the sweep starts.
    public static func powerPermille(at instant: Instant, sweepStart: Instant, periodMs: Int64) -> Int {
        let elapsed = sweepStart.milliseconds(until: instant)
        guard periodMs > 0, elapsed > 0 else { return 0 }
        let phase = elapsed % periodMs
        let distance = min(phase, periodMs - phase)  // 0 … period/2
        return Int((distance * 2000 + periodMs / 2) / periodMs)
    }

    /// Launch speed in m/s for `powerPermille` of `topSpeed` m/s.
    public static func launchSpeed(powerPermille: Int, topSpeed: Int) -> Double {
        Double(powerPermille) / 1000 * Double(topSpeed)
    }

    /// Time in the air, ms, for a launch at `speed` m/s: t = 2v/g, to the nearest millisecond.
    public static func airMilliseconds(speed: Double) -> Int64 {
        Int64((2 * speed / gravity * 1000).rounded())
    }

    /// Height reached, mm, for `airMs` in the air: h = ½ · g · (t/2)², to the nearest millimetre.
    public static func heightMillimetres(airMs: Int64) -> Int {
        let halfFlight = Double(airMs) / 2000
        return Int((0.5 * gravity * halfFlight * halfFlight * 1000).rounded())
    }

    /// The quality of a catch `offsetMs` from the landing (nil: no catch) with a phone of `windowMs`; edges count
    /// in the better class.
    public static func quality(offsetMs: Int64?, windowMs: Int64) -> FlyQuality {
        guard let offsetMs else { return .dropped }
        let distance = abs(offsetMs)
        if distance <= windowMs { return .clean }
        if distance <= 2 * windowMs { return .fumbled }
        return .dropped
    }

    /// The streak bonus in percent after `streak` consecutive clean catches above 5 m: +10 % each.
    public static func bonusPercent(streak: Int) -> Int { 100 + 10 * max(0, streak) }

    /// Points for a throw: height in metres × multiplier × streak bonus, rounded to a whole number (halves up);
    /// half of that for a fumble, nothing for a drop.
    public static func points(heightMm: Int, multiplierPercent: Int, bonusPercent: Int, quality: FlyQuality) -> Int {
        let product = heightMm * multiplierPercent * bonusPercent  // metres × 1000 × 100 × 100
        let divisor: Int
        switch quality {
        case .clean: divisor = 10_000_000
        case .fumbled: divisor = 20_000_000
        case .dropped: return 0
        }
        return (product + divisor / 2) / divisor
    }

    /// Whether a clean catch from `heightMm` adds to the streak (above 5 m).
    public static func extendsStreak(heightMm: Int) -> Bool { heightMm > 5000 }

    /// `12.41 m` (two decimals) for people.
    public static func metres(_ heightMm: Int) -> String {
        let centimetres = (heightMm + 5) / 10
        let cents = centimetres % 100
        return "\(centimetres / 100).\(cents < 10 ? "0" : "")\(cents) m"
    }
}

/// One phone a player may throw: the pricier, the bigger the multiplier and the narrower the catch window.
public struct FlyPhone: Codable, Sendable, Equatable {
    /// The id players type (`brick`).
    public var id: String
    /// Its name for people.
    public var name: String
    /// Score multiplier in percent (80 = ×0.8).
    public var multiplierPercent: Int
    /// How far from the landing a catch is still clean, ms (twice this is a fumble).
    public var catchWindowMs: Int64

    /// Creates a phone.
    public init(id: String, name: String, multiplierPercent: Int, catchWindowMs: Int64) {
        self.id = id
        self.name = name
        self.multiplierPercent = multiplierPercent
        self.catchWindowMs = catchWindowMs
    }

    /// `×1.5`.
    public var multiplierText: String {
        let tenths = multiplierPercent / 10
        let hundredths = multiplierPercent % 10
        return "×\(tenths / 10).\(tenths % 10)" + (hundredths == 0 ? "" : "\(hundredths)")
    }

    /// The built-in phones, cheapest first. A player who does not pick throws the middle one.
    public static let builtin: [FlyPhone] = [
        FlyPhone(id: "brick", name: "Old brick", multiplierPercent: 80, catchWindowMs: 250),
        FlyPhone(id: "flip", name: "Flip phone", multiplierPercent: 90, catchWindowMs: 200),
        FlyPhone(id: "midrange", name: "Mid-range", multiplierPercent: 100, catchWindowMs: 150),
        FlyPhone(id: "pro", name: "Pro", multiplierPercent: 120, catchWindowMs: 110),
        FlyPhone(id: "flagship", name: "Flagship", multiplierPercent: 150, catchWindowMs: 70),
    ]

    /// The phone thrown by whoever picks none: the middle of `phones`.
    public static func middle(of phones: [FlyPhone]) -> FlyPhone? {
        phones.isEmpty ? nil : phones[phones.count / 2]
    }
}

/// How a game of Let Me Fly runs.
public struct FlySettings: Codable, Sendable, Equatable {
    /// Rounds; each player throws once a round.
    public var rounds = 3
    /// How long a round is open for throws, s.
    public var roundSeconds = 30
    /// The power meter's period (0 → 100 % → 0), ms.
    public var periodMs: Int64 = 1600
    /// Launch speed at 100 % power, m/s.
    public var topSpeed = 20
    /// Pause between rounds, s; 0 waits for the operator's `next`.
    public var breakSeconds = 5

    /// Allowed rounds.
    public static let roundsRange = 1...20
    /// Allowed round lengths, s.
    public static let roundSecondsRange = 5...600
    /// Allowed meter periods, ms.
    public static let periodMsRange = 400...10_000
    /// Allowed top speeds, m/s.
    public static let topSpeedRange = 5...40
    /// Allowed breaks, s.
    public static let breakSecondsRange = 0...600

    /// The defaults: 3 rounds of 30 s, a 1.6 s meter, 20 m/s at full power, 5 s between rounds.
    public init() {}

    /// Creates settings.
    public init(rounds: Int, roundSeconds: Int, periodMs: Int64, topSpeed: Int, breakSeconds: Int) {
        self.rounds = rounds
        self.roundSeconds = roundSeconds
        self.periodMs = periodMs
        self.topSpeed = topSpeed
        self.breakSeconds = breakSeconds
    }
}
