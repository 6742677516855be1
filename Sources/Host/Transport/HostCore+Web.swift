/// The core's side of the transport's WebSocket events: they concern only the session layer.
extension HostCore {
    /// A connection upgraded to a WebSocket.
    func upgraded(_ id: SessionID) { sessions.upgraded(id, at: now) }

    /// A WebSocket ping or pong arrived; false refuses a ping over the message rate.
    func heard(from id: SessionID, isPing: Bool) -> Bool { sessions.heard(from: id, isPing: isPing, at: now) }

    /// A word's recording for `/audio/LIST/FILE`: the list is looked up in the word-list library and the word among
    /// its words (`WordAudio.served`), so a request can name nothing else on the disk.
    func recording(list: String, file: String) -> (bytes: [UInt8], contentType: String)? {
        guard let tool = operators.tools.tool(ContentTool<WordLists>.self), let found = tool.library.list(id: list)
        else { return nil }
        return WordAudio(wordsFolder: tool.store.folder).served(list: found, file: file)
    }
}
