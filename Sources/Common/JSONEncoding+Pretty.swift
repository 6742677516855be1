extension JSONEncoding {
    /// Indented JSON text for files people read and edit (content files, game logs), ending with a newline.
    ///
    /// Two spaces per level and `"key" : value`, as Foundation's pretty printer writes it; empty lists and objects
    /// stay on one line. Members keep their order, or are sorted by key with `sortingKeys`.
    public static func pretty(_ value: JSONValue, sortingKeys: Bool = false) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(256)
        writePretty(value, sortingKeys: sortingKeys, depth: 0, to: &output)
        output.append(0x0A)
        return output
    }

    private static func writePretty(_ value: JSONValue, sortingKeys: Bool, depth: Int, to output: inout [UInt8]) {
        switch value {
        case .array(let elements) where !elements.isEmpty:
            output.append(UInt8(ascii: "["))
            for (offset, element) in elements.enumerated() {
                output.append(contentsOf: offset == 0 ? [0x0A] : [UInt8(ascii: ","), 0x0A])
                indent(depth + 1, &output)
                writePretty(element, sortingKeys: sortingKeys, depth: depth + 1, to: &output)
            }
            output.append(0x0A)
            indent(depth, &output)
            output.append(UInt8(ascii: "]"))
        case .object(let object) where object.count > 0:
            let members = sortingKeys ? object.members.sorted { $0.key < $1.key } : object.members
            output.append(UInt8(ascii: "{"))
            for (offset, member) in members.enumerated() {
                output.append(contentsOf: offset == 0 ? [0x0A] : [UInt8(ascii: ","), 0x0A])
                indent(depth + 1, &output)
                writeString(member.key, to: &output)
                output.append(contentsOf: [0x20, UInt8(ascii: ":"), 0x20])
                writePretty(member.value, sortingKeys: sortingKeys, depth: depth + 1, to: &output)
            }
            output.append(0x0A)
            indent(depth, &output)
            output.append(UInt8(ascii: "}"))
        default:
            write(value, to: &output)
        }
    }

    private static func indent(_ depth: Int, _ output: inout [UInt8]) {
        output.append(contentsOf: repeatElement(0x20, count: 2 * depth))
    }
}
