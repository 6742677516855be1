import Testing

@testable import Host

/// The lobby's indexes stay right through joins, removals and restores.
@Suite("Room")
struct RoomTests {
    @Test func lookupsByIdNameAndTeamFollowJoinsAndRemovals() {
        var room = Room(code: "ABCD")
        let ann = room.add(name: "Ann", team: "Red", token: "t1")
        let bob = room.add(name: "Bob", team: "Blue", token: "t2")
        let cy = room.add(name: "Cy", team: "rÉd!", token: "t3")
        #expect(cy.team == "Red", "a team typed differently joins the team as first written")
        #expect(room.teams == ["Red", "Blue"])
        #expect(room.members(of: "RED").map(\.name) == ["Ann", "Cy"])
        #expect(room.player(named: "ANN")?.id == ann.id)
        #expect(room.player(token: "t2")?.id == bob.id)
        room.remove(ann.id)
        #expect(room.player(id: ann.id) == nil && room.player(named: "Ann") == nil)
        #expect(room.player(id: cy.id)?.name == "Cy", "positions after a removal are reindexed")
        #expect(room.members(of: "Red").map(\.name) == ["Cy"])
        room.remove(cy.id)
        #expect(room.teams == ["Blue"], "a team exists while it has players")
        let dee = room.add(name: "Dee", team: "Red", token: "t4")
        #expect(room.teams == ["Blue", "Red"])
        #expect(dee.id == "p4")
        var restored = Room(code: "ABCD")
        restored.restore(bob)
        restored.restore(dee)
        #expect(restored.add(name: "Eve", team: "Green", token: "t5").id == "p5", "ids continue after a restore")
        #expect(restored.player(named: "dee")?.team == "Red")
    }

    @Test func namesCompareIgnoringCaseAccentsAndPunctuation() {
        #expect(Room.key("Équipe A") == Room.key("equipe-a"))
        #expect(Room.key("Zoë") == Room.key("ZOE"))
        #expect(Room.key("Red") != Room.key("Rex"))
        #expect(Room.key("!!!") == "!!!", "a name without letters keys as itself")
    }
}
