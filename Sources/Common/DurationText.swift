/// Durations as people read them on a clock.
public enum DurationText {
    /// `12:34`, or `1:02:03` from an hour, for a time in milliseconds (rounded down to the second; never negative).
    public static func clock(_ milliseconds: Int64) -> String {
        let seconds = max(0, milliseconds) / 1000
        let (hours, minutes, rest) = (seconds / 3600, seconds / 60 % 60, seconds % 60)
        let twoDigits = { (value: Int64) in value < 10 ? "0\(value)" : "\(value)" }
        return hours > 0 ? "\(hours):\(twoDigits(minutes)):\(twoDigits(rest))" : "\(minutes):\(twoDigits(rest))"
    }
}
