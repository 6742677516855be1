import Common

/// Reading and writing one station hunt as a JSON file: the data folder's `hunts/` format and the import/export
/// format alike.
///
///     {"id":"office","name":"Office hunt","stations":[
///       {"name":"Kitchen","clue":"Where the cold things sleep","code":"FRDG",
///        "puzzle":{"words":["dog","green","red","blue"],"outsider":"dog","link":"colours"}},
///       {"name":"Desk","clue":"…","question":{"text":"…","answer":"…"},
///        "hints":[{"text":"…","costSeconds":30}],"success":"…"}]}
///
/// `id` is optional (made from `name`); `code` is optional (generated, see `Hunt.checked()`); each station has
/// exactly one of `puzzle` and `question`; a puzzle's `difficulty` is optional (medium). Unknown members are
/// ignored. Every error is a `bad_json` `RuleError` whose message starts with the line at fault.
public enum HuntFile {
    /// What a hunt file must hold, completing "it must hold …".
    static let expectation = "one JSON object with \"name\" and \"stations\""

    /// Reads a hunt from JSON bytes (UTF-8, a byte-order mark allowed), checked, codes generated where missing.
    public static func decode(bytes: [UInt8]) throws(RuleError) -> Hunt {
        let file = try JSONFile(bytes: bytes, expecting: expectation)
        let root = try file.rootObject(named: "the hunt")
        let name = try root.string("name")
        let id = try root.optionalString("id") ?? ""
        let items = try root.list("stations") { "station \($0)" }
        var stations: [Hunt.Station] = []
        for item in items {
            let fields = try item.object("an object with \"name\", \"clue\" and a \"puzzle\" or a \"question\"")
            let task: Hunt.Task
            switch (fields.member("puzzle"), fields.member("question")) {
            case (let puzzle?, nil):
                task = .puzzle(try OutsiderPackFile.readPuzzle(puzzle, defaultDifficulty: .medium))
            case (nil, let question?):
                let question = try question.object("an object with \"text\" and \"answer\"")
                task = .question(text: try question.string("text"), answer: try question.string("answer"))
            case (nil, nil):
                throw fields.error("\(fields.name) has neither a \"puzzle\" nor a \"question\".")
            case (_?, _?):
                throw fields.error("\(fields.name) has both a \"puzzle\" and a \"question\"; give it one task.")
            }
            var hints: [Hunt.Hint] = []
            if fields.member("hints") != nil {
                for hint in try fields.list("hints", itemName: { "hint \($0)" }) {
                    let hint = try hint.object("an object with \"text\" and \"costSeconds\"")
                    hints.append(
                        Hunt.Hint(text: try hint.string("text"), costSeconds: try hint.optionalInt("costSeconds") ?? 30)
                    )
                }
            }
            stations.append(
                Hunt.Station(
                    name: try fields.string("name"), clue: try fields.string("clue"),
                    code: try fields.optionalString("code") ?? "", task: task, hints: hints,
                    success: try fields.optionalString("success")))
        }
        let slug = PackLibrary.makeSlug(id.isEmpty ? name : id)
        do {
            return try Hunt(id: slug, name: name, stations: stations).checked()
        } catch {
            guard let station = error.station else { throw root.error(error.error.message) }
            let message = ContentText.lowercasingFirst(error.error.message)
            throw RuleError(.badJSON, "line \(items[station].line): station \(station + 1): \(message)")
        }
    }

    /// The hunt as pretty-printed JSON with sorted keys, codes included (the file is the organiser's).
    public static func encode(_ hunt: Hunt) -> String {
        let stations: [JSONValue] = hunt.stations.map { station in
            var object: JSONObject = [
                "name": .string(station.name), "clue": .string(station.clue), "code": .string(station.code),
            ]
            switch station.task {
            case .puzzle(let puzzle): object["puzzle"] = OutsiderPackFile.puzzleJSON(puzzle)
            case .question(let text, let answer):
                object["question"] = ["text": .string(text), "answer": .string(answer)]
            }
            if !station.hints.isEmpty {
                object["hints"] = .array(
                    station.hints.map { ["text": .string($0.text), "costSeconds": .int(Int64($0.costSeconds))] })
            }
            if let success = station.success { object["success"] = .string(success) }
            return .object(object)
        }
        let document: JSONValue = ["id": .string(hunt.id), "name": .string(hunt.name), "stations": .array(stations)]
        return String(decoding: JSONEncoding.pretty(document, sortingKeys: true), as: UTF8.self)
    }
}
