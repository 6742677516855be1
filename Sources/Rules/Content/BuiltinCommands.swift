/// The Queen's commands that ship with Partyline: family-friendly party dares written for this project.
///
/// Ids are stable (`b01`…) because operators hide built-ins by id; add new commands at the end with new ids
/// and never reuse an id. Commands naming `{3}` need at least 4 players.
public enum BuiltinCommands {
    /// Every built-in command, in id order.
    public static let all: [QueenCommand] = entries.enumerated().map { index, entry in
        let number = index + 1
        let id = number < 10 ? "b0\(number)" : "b\(number)"
        return QueenCommand(id: id, text: entry.text, kind: entry.kind, difficulty: entry.difficulty, isBuiltin: true)
    }

    /// The commands' text, kind and difficulty; the position in this list fixes the id.
    private static let entries: [(text: String, kind: CommandKind, difficulty: CommandDifficulty)] = [
        // Citizen to citizen.
        ("No. {1} must make No. {2} laugh without touching them.", .citizenToCitizen, .mild),
        ("No. {1} and No. {2} swap seats until the next round.", .citizenToCitizen, .mild),
        ("No. {1} gives No. {2} a sincere compliment.", .citizenToCitizen, .mild),
        ("No. {1} and No. {2} invent a secret handshake and show it to everyone.", .citizenToCitizen, .mild),
        ("No. {1} teaches No. {2} a word in another language.", .citizenToCitizen, .mild),
        ("No. {1} has three tries to guess No. {2}'s favourite food.", .citizenToCitizen, .mild),
        ("No. {1} and No. {2} high-five with their eyes closed.", .citizenToCitizen, .mild),
        ("No. {1} and No. {2} have a staring contest; whoever blinks first takes a bow.", .citizenToCitizen, .medium),
        ("No. {1} interviews No. {2} like a famous film star for 30 seconds.", .citizenToCitizen, .medium),
        ("No. {1} draws a portrait of No. {2} in 30 seconds.", .citizenToCitizen, .medium),
        ("No. {1} and No. {2} may only speak in rhymes until the next round.", .citizenToCitizen, .medium),
        ("No. {1} describes No. {2}'s morning like a sports commentator.", .citizenToCitizen, .medium),
        ("No. {1}, No. {2} and No. {3} form a human statue of a famous landmark.", .citizenToCitizen, .medium),
        ("No. {1} mirrors every move No. {2} makes for 20 seconds.", .citizenToCitizen, .medium),
        ("No. {1} and No. {2} act out a 20-second scene from a dramatic soap opera.", .citizenToCitizen, .bold),
        ("No. {1} sings No. {2} a made-up song about their socks.", .citizenToCitizen, .bold),
        ("No. {1} and No. {2} dance a slow waltz while No. {3} hums the music.", .citizenToCitizen, .bold),
        (
            "No. {1} advertises No. {2} as an amazing new product in a 30-second TV commercial.", .citizenToCitizen,
            .bold
        ),
        ("No. {1} and No. {2} act out a tense penalty shoot-out with an invisible ball.", .citizenToCitizen, .bold),
        ("No. {1} narrates while No. {2} makes a slow-motion action-movie escape.", .citizenToCitizen, .bold),
        ("No. {1} and No. {2} swap voices: each talks like the other until the next round.", .citizenToCitizen, .bold),
        ("No. {1} leads No. {2} and No. {3} in a conga line around the room.", .citizenToCitizen, .bold),

        // Citizen to all.
        ("No. {1} tells everyone a joke.", .citizenToAll, .mild),
        ("No. {1} shares the best thing that happened to them this week.", .citizenToAll, .mild),
        ("No. {1} names five fruits in ten seconds while everyone counts down.", .citizenToAll, .mild),
        ("No. {1} starts a round of applause for the whole group.", .citizenToAll, .mild),
        ("No. {1} mimes an animal until someone guesses it.", .citizenToAll, .mild),
        ("No. {1} says the alphabet backwards as far as they can.", .citizenToAll, .mild),
        ("No. {1} hums a song until someone guesses it.", .citizenToAll, .mild),
        ("No. {1} gives a 30-second weather forecast for the room.", .citizenToAll, .medium),
        ("No. {1} leads everyone in ten jumping jacks.", .citizenToAll, .medium),
        ("No. {1} starts a story and No. {2} must finish it.", .citizenToAll, .medium),
        ("No. {1} does their best impression of a robot making breakfast.", .citizenToAll, .medium),
        ("No. {1} invents a new holiday and explains how everyone celebrates it.", .citizenToAll, .medium),
        ("No. {1} talks like a pirate until the next round.", .citizenToAll, .medium),
        ("No. {1} walks across the room with a book balanced on their head.", .citizenToAll, .medium),
        ("No. {1} sings a 15-second opera solo about the snacks.", .citizenToAll, .bold),
        ("No. {1} teaches everyone a dance move and leads them through it.", .citizenToAll, .bold),
        ("No. {1} gives a tearful acceptance speech for an award they just invented.", .citizenToAll, .bold),
        ("No. {1} walks like a runway model from one side of the room to the other.", .citizenToAll, .bold),
        ("No. {1} and No. {2} get the whole room to do a stadium wave.", .citizenToAll, .bold),
        ("No. {1} presents a nature documentary about the people in this room.", .citizenToAll, .bold),
        ("No. {1} raps a four-line verse about this party.", .citizenToAll, .bold),
        ("No. {1} acts out a film without words until someone guesses it.", .citizenToAll, .bold),

        // Citizen to Queen.
        ("No. {1} bows deeply to Queen {queen}.", .citizenToQueen, .mild),
        ("No. {1} tells Queen {queen} a riddle.", .citizenToQueen, .mild),
        ("No. {1} pays Queen {queen} a royal compliment.", .citizenToQueen, .mild),
        ("No. {1} brings Queen {queen} a glass of water.", .citizenToQueen, .mild),
        ("No. {1} announces Queen {queen} like a royal herald.", .citizenToQueen, .mild),
        ("No. {1} and No. {2} invent a grand new title for Queen {queen}.", .citizenToQueen, .mild),
        ("No. {1} fans Queen {queen} with a sheet of paper for ten seconds.", .citizenToQueen, .mild),
        ("No. {1} writes a two-line poem in honour of Queen {queen}.", .citizenToQueen, .medium),
        ("No. {1} becomes Queen {queen}'s royal echo and repeats her next three sentences.", .citizenToQueen, .medium),
        ("No. {1} describes Queen {queen}'s kingdom like a holiday advert.", .citizenToQueen, .medium),
        ("No. {1} and No. {2} build Queen {queen} a throne out of cushions.", .citizenToQueen, .medium),
        ("No. {1} answers three questions from Queen {queen} with only yes or no.", .citizenToQueen, .medium),
        ("No. {1} has three tries to guess Queen {queen}'s favourite song.", .citizenToQueen, .medium),
        ("No. {1} shows Queen {queen} a magic trick or a party trick.", .citizenToQueen, .medium),
        ("No. {1} makes up a royal anthem for Queen {queen} and sings it.", .citizenToQueen, .bold),
        ("No. {1}, No. {2} and No. {3} march in a royal parade for Queen {queen}.", .citizenToQueen, .bold),
        ("No. {1} plays Queen {queen}'s court jester for 20 seconds to make her smile.", .citizenToQueen, .bold),
        ("No. {1} kneels and swears a knight's oath of loyalty to Queen {queen}.", .citizenToQueen, .bold),
        ("No. {1} narrates Queen {queen}'s life as an epic film trailer.", .citizenToQueen, .bold),
        ("No. {1} and No. {2} fight a duel with invisible swords in Queen {queen}'s honour.", .citizenToQueen, .bold),
        (
            "No. {1} strikes a royal portrait pose and holds it until Queen {queen} says \"Done\".", .citizenToQueen,
            .bold
        ),
        (
            "No. {1} reads out a royal decree that Queen {queen} dictates, in their most official voice.",
            .citizenToQueen, .bold
        ),
    ]
}
