// The answer line: what a player types as an answer (Shaky Words on turn, a hunt's code or answer), kept in
// `UIState.answer` and edited the same way in every game, so a key never means two things in two games.

/// What one key did to the answer line.
enum AnswerEdit: Equatable {
    /// The key edited the line (typed, deleted, cleared); nothing to send.
    case edited
    /// Enter with this text (trimmed, never empty); the line is cleared.
    case submitted(String)
    /// Enter on an empty line: the game says what to type.
    case empty
    /// Not an editing key (or `:`/`?` on an empty line, which open the command line and help).
    case notEditing
}

extension ClientState {
    /// Edits the answer line with `key`: a character is typed (up to `inputLimit`), Backspace deletes one, Esc or
    /// Ctrl-U clears it, Enter hands over its text.
    mutating func editAnswerLine(_ key: Key) -> AnswerEdit {
        switch key {
        case .character(let character):
            if ui.answer.isEmpty && (character == ":" || character == "?") { return .notEditing }
            if ui.answer.count < ClientState.inputLimit { ui.answer.append(character) }
            return .edited
        case .backspace:
            if !ui.answer.isEmpty { ui.answer.removeLast() }
            return .edited
        case .escape, .control(0x15):
            ui.answer = ""
            return .edited
        case .enter:
            let text = ui.answer.trimmingCharacters(in: .whitespaces)
            guard !text.isEmpty else { return .empty }
            ui.answer = ""
            return .submitted(text)
        default:
            return .notEditing
        }
    }

    /// The footer row that shows the answer line after `label` (" Your answer › "), with its cursor.
    func answerRow(_ label: String, isDraft: Bool = false) -> Row {
        [
            Span(label, isDraft ? .bold : .colored(.green, bold: true)), Span(ui.answer, isDraft ? .plain : .bold),
            Span("█", .dim),
        ]
    }
}
