import Protocol
import Rules
import Testing

@testable import Host

/// The wires declare their `start` options in Protocol, which cannot see Rules; these pins hold each declared range
/// and default to the settings the rules themselves keep, so the two cannot drift apart.
@Suite("Declared start options match the rules")
struct StartOptionRangeTests {
    /// The declared option `key` of `wire`.
    func declared(_ wire: any GameWire.Type, _ key: String) -> StartOption? {
        wire.startGrammar.options.first { $0.key == key }
    }

    @Test func everyRangeTheRulesKeepIsTheDeclaredOne() {
        let pins: [(any GameWire.Type, String, ClosedRange<Int>)] = [
            (ShakyWire.self, "questionSeconds", ShakySettings.questionSecondsRange),
            (ShakyWire.self, "afterBuzzSeconds", ShakySettings.afterBuzzSecondsRange),
            (ShakyWire.self, "answerSeconds", ShakySettings.answerSecondsRange),
            (ShakyWire.self, "revealSeconds", ShakySettings.revealSecondsRange),
            (QueenWire.self, "maxPlayers", QueenSettings.playerCountRange),
            (QueenWire.self, "countdownSeconds", QueenSettings.countdownSecondsRange),
            (QueenWire.self, "chooseSeconds", QueenSettings.chooseSecondsRange),
            (QueenWire.self, "autoNextSeconds", QueenSettings.autoNextSecondsRange),
            (WordsWire.self, "level", 1...WordList.maximumLevel),
            (WordsWire.self, "lockoutSeconds", CompoundWords.Settings.lockoutSecondsRange),
            (FlyWire.self, "rounds", FlySettings.roundsRange),
            (FlyWire.self, "roundSeconds", FlySettings.roundSecondsRange),
            (FlyWire.self, "periodMs", FlySettings.periodMsRange),
            (FlyWire.self, "topSpeed", FlySettings.topSpeedRange),
            (FlyWire.self, "breakSeconds", FlySettings.breakSecondsRange),
            (OutsiderWire.self, "roundSeconds", OutsiderSettings.roundSecondsRange),
            (OutsiderWire.self, "revealSeconds", OutsiderSettings.revealSecondsRange),
            (HuntWire.self, "minutes", HuntSettings.minutesRange),
            (HuntWire.self, "penaltySeconds", HuntSettings.penaltySecondsRange),
        ]
        for (wire, key, range) in pins {
            #expect(declared(wire, key)?.kind == .wholeNumber(range), "\(wire.name) \(key)")
        }
    }

    @Test func theDeclaredDefaultsAreTheRulesOwn() {
        let fly = FlySettings()
        let queen = QueenSettings()
        let pins: [(any GameWire.Type, String, Int)] = [
            (FlyWire.self, "rounds", fly.rounds), (FlyWire.self, "roundSeconds", fly.roundSeconds),
            (FlyWire.self, "periodMs", Int(fly.periodMs)), (FlyWire.self, "topSpeed", fly.topSpeed),
            (FlyWire.self, "breakSeconds", fly.breakSeconds),
            (QueenWire.self, "autoNextSeconds", queen.autoNextSeconds ?? 0),
            (WordsWire.self, "lockoutSeconds", CompoundWords.Settings.defaultLockoutSeconds(.cards)),
        ]
        for (wire, key, value) in pins {
            #expect(declared(wire, key)?.defaultValue == .int(Int64(value)), "\(wire.name) \(key)")
        }
    }

    @Test func aHouseRulePresetsEveryModeThatDeclaresIt() throws {
        var options = HostOptions()
        options.isStrict = true
        options.revealSeconds = 0
        for wire in [ShakyWire.self, HuntWire.self] as [any GameWire.Type] {
            let read = StartOptions(fields: [:], declared: wire.startGrammar.options, houseRules: options.houseRules)
            #expect(try read.bool("strict"), "\(wire.name)")
        }
        let outsider = StartOptions(
            fields: [:], declared: OutsiderWire.startGrammar.options, houseRules: options.houseRules)
        #expect(try outsider.integer("revealSeconds") == 0)
        let given = StartOptions(
            fields: ["revealSeconds": 9], declared: OutsiderWire.startGrammar.options, houseRules: options.houseRules)
        #expect(try given.integer("revealSeconds") == 9, "the game's own option wins over the house rule")
    }
}
