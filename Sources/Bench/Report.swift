import Foundation
import Protocol

/// One line of the printed table.
struct TableRow {
    var measure: String
    var value: String
    var floor: String = ""
    var ratio: String = ""
    var target: String = ""
    var status: String = ""
}

/// Whether one target was met.
struct TargetCheck {
    var name: String
    var value: Double?
    var limit: Double
    var unit: String
    /// nil: not measured (a failure or a section that did not run).
    var isMet: Bool? { value.map { $0 <= limit } }

    var json: JSONValue {
        .object([
            "name": .string(name), "value": value.map { .double(rounded($0)) } ?? .null, "limit": .double(limit),
            "unit": .string(unit), "met": isMet.map(JSONValue.bool) ?? .null,
        ])
    }

    var statusText: String {
        switch isMet {
        case true?: return "met"
        case false?: return "MISSED"
        case nil: return "n/a"
        }
    }
}

/// Everything a run found: sections for the JSON file, rows for the table, targets checked.
final class Report {
    var sections = JSONObject()
    var rows: [TableRow] = []
    var targets: [TargetCheck] = []
    var problems: [String] = []

    func add(_ row: TableRow) { rows.append(row) }

    @discardableResult
    func check(_ name: String, value: Double?, limit: Double, unit: String) -> TargetCheck {
        let check = TargetCheck(name: name, value: value, limit: limit, unit: unit)
        targets.append(check)
        return check
    }

    /// The table as aligned text.
    func table() -> String {
        let header = TableRow(
            measure: "Measure", value: "Host", floor: "Floor", ratio: "Host/Floor", target: "Target", status: "Status")
        let all = [header] + rows
        func width(_ key: KeyPath<TableRow, String>) -> Int { all.map { $0[keyPath: key].count }.max() ?? 0 }
        let widths = [
            width(\.measure), width(\.value), width(\.floor), width(\.ratio), width(\.target), width(\.status),
        ]
        func line(_ row: TableRow) -> String {
            let cells = [row.measure, row.value, row.floor, row.ratio, row.target, row.status]
            return "| "
                + zip(cells, widths).map { $0.0.padding(toLength: $0.1, withPad: " ", startingAt: 0) }.joined(
                    separator: " | ") + " |"
        }
        let rule = "|" + widths.map { String(repeating: "-", count: $0 + 2) }.joined(separator: "|") + "|"
        return ([line(header), rule] + rows.map(line)).joined(separator: "\n")
    }
}

/// Pretty-printed JSON (two-space indent), for the results file.
enum PrettyJSON {
    static func text(_ value: JSONValue, indent: String = "") -> String {
        let inner = indent + "  "
        switch value {
        case .array(let elements):
            if elements.isEmpty { return "[]" }
            if elements.allSatisfy({
                if case .object = $0 { return false }
                if case .array = $0 { return false }
                return true
            }) {
                return "[" + elements.map { text($0) }.joined(separator: ", ") + "]"
            }
            return "[\n" + elements.map { inner + text($0, indent: inner) }.joined(separator: ",\n") + "\n" + indent
                + "]"
        case .object(let object):
            if object.count == 0 { return "{}" }
            return "{\n"
                + object.members.map { member in
                    inner + JSONValue.string(member.key).description + ": " + text(member.value, indent: inner)
                }.joined(separator: ",\n") + "\n" + indent + "}"
        default:
            return value.description
        }
    }
}
