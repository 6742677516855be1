/// One key press read from a terminal in raw mode.
enum Key: Equatable, Sendable {
    case character(Character)
    case enter
    case backspace
    case tab
    case escape
    case up, down, left, right
    case pageUp, pageDown
    /// A control key (`ctrl("c")` is 0x03), other than those named above.
    case control(UInt8)

    /// Ctrl-C.
    static let interrupt = Key.control(3)
}

/// Turns raw terminal bytes into keys; a pure value that keeps an unfinished escape sequence or UTF-8 character.
struct KeyDecoder: Sendable {
    private var pending: [UInt8] = []

    /// Creates a decoder.
    init() {}

    /// Decodes `bytes`; a lone ESC at the end of a read is the Escape key.
    mutating func feed(_ bytes: [UInt8]) -> [Key] {
        pending += bytes
        var keys: [Key] = []
        var index = 0
        let input = pending
        while index < input.count {
            let byte = input[index]
            switch byte {
            case 0x0D, 0x0A:
                keys.append(.enter)
                // CR LF from some terminals counts once
                if byte == 0x0D, index + 1 < input.count, input[index + 1] == 0x0A { index += 1 }
                index += 1
            case 0x7F, 0x08:
                keys.append(.backspace)
                index += 1
            case 0x09:
                keys.append(.tab)
                index += 1
            case 0x1B:
                guard index + 1 < input.count else {
                    keys.append(.escape)
                    index += 1
                    continue
                }
                let next = input[index + 1]
                guard next == UInt8(ascii: "[") || next == UInt8(ascii: "O") else {
                    keys.append(.escape)
                    index += 1
                    continue
                }
                // CSI or SS3: parameters, then a final byte in 0x40…0x7E
                var end = index + 2
                while end < input.count, !(0x40...0x7E).contains(input[end]) { end += 1 }
                guard end < input.count else {
                    pending = Array(input[index...])  // unfinished: wait for more
                    return keys
                }
                let parameters = String(decoding: input[(index + 2)..<end], as: UTF8.self)
                switch input[end] {
                case UInt8(ascii: "A"): keys.append(.up)
                case UInt8(ascii: "B"): keys.append(.down)
                case UInt8(ascii: "C"): keys.append(.right)
                case UInt8(ascii: "D"): keys.append(.left)
                case UInt8(ascii: "~") where parameters == "5": keys.append(.pageUp)
                case UInt8(ascii: "~") where parameters == "6": keys.append(.pageDown)
                default: break  // other function keys are ignored
                }
                index = end + 1
            case 0x00..<0x20:
                keys.append(.control(byte))
                index += 1
            default:
                let length = byte < 0x80 ? 1 : byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
                guard index + length <= input.count else {
                    pending = Array(input[index...])
                    return keys
                }
                let text = String(decoding: input[index..<(index + length)], as: UTF8.self)
                for character in text { keys.append(.character(character)) }
                index += length
            }
        }
        pending = []
        return keys
    }
}
