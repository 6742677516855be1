/// A stable machine-readable reason for a refusal: the `code` of an `error` message on the wire.
///
/// This is the one list of codes, for the protocol's own layer and every game alike; PROTOCOL.md §12
/// lists the same codes (a test holds the two together). Codes are lower_snake_case and, once
/// published, never renamed.
public struct ErrorCode: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The code as it appears on the wire.
    public let rawValue: String

    /// The code with this wire spelling, when it is one of `all`.
    public init?(rawValue: String) {
        guard ErrorCode.all.contains(where: { $0.rawValue == rawValue }) else { return nil }
        self.rawValue = rawValue
    }

    private init(_ rawValue: String) { self.rawValue = rawValue }

    public var description: String { rawValue }

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// `already_buzzed`
    public static let alreadyBuzzed = ErrorCode("already_buzzed")
    /// `already_checked_in`
    public static let alreadyCheckedIn = ErrorCode("already_checked_in")
    /// `already_finished`
    public static let alreadyFinished = ErrorCode("already_finished")
    /// `already_joined`
    public static let alreadyJoined = ErrorCode("already_joined")
    /// `already_paused`
    public static let alreadyPaused = ErrorCode("already_paused")
    /// `already_picked`
    public static let alreadyPicked = ErrorCode("already_picked")
    /// `already_playing`
    public static let alreadyPlaying = ErrorCode("already_playing")
    /// `already_started`
    public static let alreadyStarted = ErrorCode("already_started")
    /// `already_thrown`
    public static let alreadyThrown = ErrorCode("already_thrown")
    /// `answer_in_question`
    public static let answerInQuestion = ErrorCode("answer_in_question")
    /// `answer_too_long`
    public static let answerTooLong = ErrorCode("answer_too_long")
    /// `answer_too_short`
    public static let answerTooShort = ErrorCode("answer_too_short")
    /// `awaiting_verdict`
    public static let awaitingVerdict = ErrorCode("awaiting_verdict")
    /// `bad_board`
    public static let badBoard = ErrorCode("bad_board")
    /// `bad_choice`
    public static let badChoice = ErrorCode("bad_choice")
    /// `bad_hunt`
    public static let badHunt = ErrorCode("bad_hunt")
    /// `bad_move`
    public static let badMove = ErrorCode("bad_move")
    /// `bad_pick`
    public static let badPick = ErrorCode("bad_pick")
    /// `bad_puzzle`
    public static let badPuzzle = ErrorCode("bad_puzzle")
    /// `bad_word_list`
    public static let badWordList = ErrorCode("bad_word_list")
    /// `banned`
    public static let banned = ErrorCode("banned")
    /// `bad_challenge`
    public static let badChallenge = ErrorCode("bad_challenge")
    /// `bad_csv`
    public static let badCSV = ErrorCode("bad_csv")
    /// `bad_field`
    public static let badField = ErrorCode("bad_field")
    /// `bad_json`
    public static let badJSON = ErrorCode("bad_json")
    /// `bad_key`
    public static let badKey = ErrorCode("bad_key")
    /// `bad_name`
    public static let badName = ErrorCode("bad_name")
    /// `bad_option`
    public static let badOption = ErrorCode("bad_option")
    /// `bad_pack_name`
    public static let badPackName = ErrorCode("bad_pack_name")
    /// `bad_placeholder`
    public static let badPlaceholder = ErrorCode("bad_placeholder")
    /// `bad_question_count`
    public static let badQuestionCount = ErrorCode("bad_question_count")
    /// `bad_question_index`
    public static let badQuestionIndex = ErrorCode("bad_question_index")
    /// `bad_settings`
    public static let badSettings = ErrorCode("bad_settings")
    /// `bad_telnet`: a telnet subnegotiation that never ended was dropped.
    public static let badTelnet = ErrorCode("bad_telnet")
    /// `bad_text`: text people would see holds a control character, an escape sequence or invisible formatting.
    public static let badText = ErrorCode("bad_text")
    /// `bad_token`
    public static let badToken = ErrorCode("bad_token")
    /// `bad_version`
    public static let badVersion = ErrorCode("bad_version")
    /// `buzz_closed`
    public static let buzzClosed = ErrorCode("buzz_closed")
    /// `code_locked`
    public static let codeLocked = ErrorCode("code_locked")
    /// `command_too_long`
    public static let commandTooLong = ErrorCode("command_too_long")
    /// `duplicate_command`
    public static let duplicateCommand = ErrorCode("duplicate_command")
    /// `duplicate_player`
    public static let duplicatePlayer = ErrorCode("duplicate_player")
    /// `duplicate_puzzle`
    public static let duplicatePuzzle = ErrorCode("duplicate_puzzle")
    /// `duplicate_question`
    public static let duplicateQuestion = ErrorCode("duplicate_question")
    /// `duplicate_team`
    public static let duplicateTeam = ErrorCode("duplicate_team")
    /// `empty_answer`
    public static let emptyAnswer = ErrorCode("empty_answer")
    /// `empty_command`
    public static let emptyCommand = ErrorCode("empty_command")
    /// `empty_question`
    public static let emptyQuestion = ErrorCode("empty_question")
    /// `forbidden`
    public static let forbidden = ErrorCode("forbidden")
    /// `full`
    public static let full = ErrorCode("full")
    /// `game_over`
    public static let gameOver = ErrorCode("game_over")
    /// `game_running`
    public static let gameRunning = ErrorCode("game_running")
    /// `hunt_name_taken`
    public static let huntNameTaken = ErrorCode("hunt_name_taken")
    /// `invalid_settings`
    public static let invalidSettings = ErrorCode("invalid_settings")
    /// `invalid_team_name`
    public static let invalidTeamName = ErrorCode("invalid_team_name")
    /// `kicked`
    public static let kicked = ErrorCode("kicked")
    /// `line_too_long`
    public static let lineTooLong = ErrorCode("line_too_long")
    /// `locked_out`
    public static let lockedOut = ErrorCode("locked_out")
    /// `name_taken`
    public static let nameTaken = ErrorCode("name_taken")
    /// `no_game`
    public static let noGame = ErrorCode("no_game")
    /// `no_height`
    public static let noHeight = ErrorCode("no_height")
    /// `no_more_hints`
    public static let noMoreHints = ErrorCode("no_more_hints")
    /// `no_packs`
    public static let noPacks = ErrorCode("no_packs")
    /// `no_questions`
    public static let noQuestions = ErrorCode("no_questions")
    /// `no_teams`
    public static let noTeams = ErrorCode("no_teams")
    /// `nothing_to_judge`
    public static let nothingToJudge = ErrorCode("nothing_to_judge")
    /// `not_builtin`
    public static let notBuiltin = ErrorCode("not_builtin")
    /// `not_enough_questions`
    public static let notEnoughQuestions = ErrorCode("not_enough_questions")
    /// `not_in_air`
    public static let notInAir = ErrorCode("not_in_air")
    /// `not_joined`
    public static let notJoined = ErrorCode("not_joined")
    /// `not_paused`
    public static let notPaused = ErrorCode("not_paused")
    /// `not_queen`
    public static let notQueen = ErrorCode("not_queen")
    /// `not_reached`
    public static let notReached = ErrorCode("not_reached")
    /// `not_started`
    public static let notStarted = ErrorCode("not_started")
    /// `not_your_turn`
    public static let notYourTurn = ErrorCode("not_your_turn")
    /// `pack_full`
    public static let packFull = ErrorCode("pack_full")
    /// `pack_name_taken`
    public static let packNameTaken = ErrorCode("pack_name_taken")
    /// `paused`
    public static let paused = ErrorCode("paused")
    /// `phone_locked`
    public static let phoneLocked = ErrorCode("phone_locked")
    /// `question_closed`
    public static let questionClosed = ErrorCode("question_closed")
    /// `question_too_long`
    public static let questionTooLong = ErrorCode("question_too_long")
    /// `rate_limited`
    public static let rateLimited = ErrorCode("rate_limited")
    /// `read_only`
    public static let readOnly = ErrorCode("read_only")
    /// `round_closed`
    public static let roundClosed = ErrorCode("round_closed")
    /// `round_running`
    public static let roundRunning = ErrorCode("round_running")
    /// `storage`
    public static let storage = ErrorCode("storage")
    /// `team_finished`
    public static let teamFinished = ErrorCode("team_finished")
    /// `team_out`
    public static let teamOut = ErrorCode("team_out")
    /// `too_few_players`
    public static let tooFewPlayers = ErrorCode("too_few_players")
    /// `too_many_players`
    public static let tooManyPlayers = ErrorCode("too_many_players")
    /// `too_many_targets`
    public static let tooManyTargets = ErrorCode("too_many_targets")
    /// `unknown_board`
    public static let unknownBoard = ErrorCode("unknown_board")
    /// `unknown_command`
    public static let unknownCommand = ErrorCode("unknown_command")
    /// `unknown_game`
    public static let unknownGame = ErrorCode("unknown_game")
    /// `unknown_hunt`
    public static let unknownHunt = ErrorCode("unknown_hunt")
    /// `unknown_level`
    public static let unknownLevel = ErrorCode("unknown_level")
    /// `unknown_list`
    public static let unknownList = ErrorCode("unknown_list")
    /// `unknown_pack`
    public static let unknownPack = ErrorCode("unknown_pack")
    /// `unknown_phone`
    public static let unknownPhone = ErrorCode("unknown_phone")
    /// `unknown_player`
    public static let unknownPlayer = ErrorCode("unknown_player")
    /// `unknown_team`
    public static let unknownTeam = ErrorCode("unknown_team")
    /// `unknown_type`
    public static let unknownType = ErrorCode("unknown_type")
    /// `wrong_code`
    public static let wrongCode = ErrorCode("wrong_code")
    /// `wrong_exercise`
    public static let wrongExercise = ErrorCode("wrong_exercise")
    /// `wrong_game`
    public static let wrongGame = ErrorCode("wrong_game")
    /// `wrong_phase`
    public static let wrongPhase = ErrorCode("wrong_phase")
    /// `wrong_room`
    public static let wrongRoom = ErrorCode("wrong_room")

    /// Every code, in alphabetical order.
    public static let all: [ErrorCode] = [
        .alreadyBuzzed, .alreadyCheckedIn, .alreadyFinished, .alreadyJoined, .alreadyPaused, .alreadyPicked,
        .alreadyPlaying, .alreadyStarted, .alreadyThrown, .answerInQuestion, .answerTooLong, .answerTooShort,
        .awaitingVerdict, .badBoard, .badChallenge, .badChoice, .badCSV, .badField, .badHunt, .badJSON, .badKey,
        .badMove, .badName, .badOption, .badPackName, .badPick, .badPlaceholder, .badPuzzle, .badQuestionCount,
        .badQuestionIndex, .badSettings, .badTelnet, .badText, .badToken, .badVersion, .badWordList, .banned,
        .buzzClosed, .codeLocked, .commandTooLong, .duplicateCommand, .duplicatePlayer, .duplicatePuzzle,
        .duplicateQuestion, .duplicateTeam, .emptyAnswer, .emptyCommand, .emptyQuestion, .forbidden, .full, .gameOver,
        .gameRunning, .huntNameTaken, .invalidSettings, .invalidTeamName, .kicked, .lineTooLong, .lockedOut, .nameTaken,
        .noGame, .noHeight, .noMoreHints, .noPacks, .noQuestions, .notBuiltin, .noTeams, .notEnoughQuestions,
        .nothingToJudge, .notInAir, .notJoined, .notPaused, .notQueen, .notReached, .notStarted, .notYourTurn,
        .packFull, .packNameTaken, .paused, .phoneLocked, .questionClosed, .questionTooLong, .rateLimited, .readOnly,
        .roundClosed, .roundRunning, .storage, .teamFinished, .teamOut, .tooFewPlayers, .tooManyPlayers,
        .tooManyTargets, .unknownBoard, .unknownCommand, .unknownGame, .unknownHunt, .unknownLevel, .unknownList,
        .unknownPack, .unknownPhone, .unknownPlayer, .unknownTeam, .unknownType, .wrongCode, .wrongExercise, .wrongGame,
        .wrongPhase, .wrongRoom,
    ]
}
