/// Team names by their folded form (`TextFolding.fold`): a game's index for finding and refusing teams without
/// folding every name each time.
struct FoldedTeams: Codable, Sendable, Equatable {
    /// The team whose name folds to each key.
    var byKey: [String: String] = [:]

    /// Whether a team whose name folds to `folded` is there: by the index when there is one, else by scanning.
    static func contains(_ folded: String, in index: FoldedTeams?, teams: [String]) -> Bool {
        if let index { return index.byKey[folded] != nil }
        return teams.contains { TextFolding.fold($0) == folded }
    }
}
