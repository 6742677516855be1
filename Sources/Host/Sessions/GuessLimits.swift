/// Limits on wrong guesses at a game's secrets (a station hunt's check-in codes) per connection and per address,
/// on top of a game's own limit per team: throwaway teams and connections then add no guesses.
///
/// A connection may make `perConnection` wrong guesses a minute and an address `perAddress`; beyond either, its
/// guesses are refused (`rate_limited`, saying when to try again) until the oldest wrong one is a minute old. A
/// right guess never counts. Refused guesses are not tried at all, so refusing tells nothing about the code.
struct GuessLimits {
    /// Wrong guesses a connection may make in `window` ms.
    static let perConnection = 10
    /// Wrong guesses an address may make in `window` ms (several teams may share one, behind a school's NAT).
    static let perAddress = 30
    /// The sliding window, ms.
    static let window: Int64 = 60_000

    /// When each address guessed wrong lately.
    private var wrongByAddress: [String: [Int64]] = [:]

    /// Why `session` may not guess now (with when to try again), or nil when it may.
    mutating func refusal(session: Session, at now: Int64) -> String? {
        session.wrongCheckIns = recent(session.wrongCheckIns, now)
        if session.wrongCheckIns.count >= Self.perConnection {
            return "Too many wrong codes from this connection: try again in \(wait(session.wrongCheckIns, now)) s."
        }
        let fromAddress = recent(wrongByAddress[session.peer] ?? [], now)
        wrongByAddress[session.peer] = fromAddress.isEmpty ? nil : fromAddress
        if fromAddress.count >= Self.perAddress {
            return "Too many wrong codes from your network address: try again in \(wait(fromAddress, now)) s."
        }
        return nil
    }

    /// Counts a wrong guess by `session`.
    mutating func noteWrong(session: Session, at now: Int64) {
        session.wrongCheckIns.append(now)
        wrongByAddress[session.peer, default: []].append(now)
        if wrongByAddress.count > 1000 { wrongByAddress = wrongByAddress.filter { !recent($0.value, now).isEmpty } }
    }

    private func recent(_ times: [Int64], _ now: Int64) -> [Int64] { times.filter { now - $0 < Self.window } }

    /// Seconds until the oldest of `times` leaves the window (at least 1).
    private func wait(_ times: [Int64], _ now: Int64) -> Int64 {
        max(1, (Self.window - (now - (times.first ?? now)) + 999) / 1000)
    }
}
