extension JSONValue: ExpressibleByDictionaryLiteral {
    /// Creates an object from a dictionary literal, keeping the written order of its members.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        var object = JSONObject()
        for (key, value) in elements { object[key] = value }
        self = .object(object)
    }
}
