import Foundation
import Protocol

/// Order statistics of a list of measurements (milliseconds or any other unit).
struct Summary {
    /// How many values were measured.
    var count: Int
    /// The median.
    var p50: Double
    /// The 99th percentile (nearest rank).
    var p99: Double
    /// The largest value.
    var max: Double
    /// The arithmetic mean.
    var mean: Double

    /// Summarizes `values`; all fields are 0 when there are none.
    init(_ values: [Double]) {
        let sorted = values.sorted()
        count = sorted.count
        p50 = Summary.percentile(sorted, 0.50)
        p99 = Summary.percentile(sorted, 0.99)
        max = sorted.last ?? 0
        mean = sorted.isEmpty ? 0 : sorted.reduce(0, +) / Double(sorted.count)
    }

    /// The nearest-rank percentile of already sorted values.
    static func percentile(_ sorted: [Double], _ fraction: Double) -> Double {
        guard !sorted.isEmpty else { return 0 }
        let rank = Int((fraction * Double(sorted.count)).rounded(.up))
        return sorted[Swift.max(0, Swift.min(sorted.count - 1, rank - 1))]
    }

    /// The summary as a JSON object (`count`, `p50`, `p99`, `max`, `mean`).
    var json: JSONValue {
        .object([
            "count": .number(count), "p50": .double(rounded(p50)), "p99": .double(rounded(p99)),
            "max": .double(rounded(max)), "mean": .double(rounded(mean)),
        ])
    }
}

/// Rounds to three decimals (microseconds when the unit is milliseconds) for readable output.
func rounded(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }

/// Formats milliseconds for the table: 3 significant digits, at least 2 decimals below 1.
func formatMilliseconds(_ value: Double) -> String {
    if value >= 100 { return String(format: "%.0f", value) }
    if value >= 10 { return String(format: "%.1f", value) }
    return String(format: "%.2f", value)
}

/// Formats a ratio (`host / floor`).
func formatRatio(_ value: Double?) -> String {
    guard let value, value.isFinite else { return "—" }
    return String(format: "%.2f×", value)
}
