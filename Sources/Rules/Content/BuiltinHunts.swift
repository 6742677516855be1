/// The station hunts that ship with Partyline, one JSON document per hunt.
///
/// A station names a place every home or office has, a riddle leading there, a four-letter check-in code (only the
/// unambiguous letters ACDEFHJKLMNPQRTUVWXY), exactly one task (an Odd One Out `puzzle` or a typed-answer
/// `question`), one or two hints that cost seconds, and a success message that fits any order (a staggered hunt
/// starts each team elsewhere; the host itself says when a team found every station).
enum BuiltinHunts {
    /// Every built-in hunt: its stable id and its JSON text.
    static let hunts: [(id: String, json: String)] = [
        (id: "demo", json: demo)
    ]

    /// A five-station demo hunt for a party at home or in an office.
    private static let demo = """
        {"id":"demo","name":"The party hunt","stations":[
        {"name":"Fridge",
        "clue":"I hum in the kitchen and I'm cold inside; the milk and the butter are where they hide.",
        "code":"YUMM",
        "puzzle":{"words":["cheese","yoghurt","butter","bread"],"outsider":"bread","link":"made from milk"},
        "hints":[{"text":"Think about what each one is made from.","costSeconds":20},
        {"text":"Three of them began as something a cow gives us.","costSeconds":45}],
        "success":"Cool work, crew! The fridge approves."},
        {"name":"Front door",
        "clue":"Every guest at this party came in through me; I have a handle, a lock and a hole for a key.",
        "code":"KNCK",
        "question":{"text":"What do visitors press beside a door so the people inside know they have arrived?",
        "answer":"doorbell"},
        "hints":[{"text":"It often goes ding-dong.","costSeconds":30}],
        "success":"Ding-dong! Right on the doorstep."},
        {"name":"Bookshelf",
        "clue":"I am full of stories, yet I cannot read; I keep them in rows for whenever you need.",
        "code":"READ",
        "puzzle":{"words":["atlas","dictionary","diary","telescope"],"outsider":"telescope","link":"books"},
        "hints":[{"text":"Three of them have pages.","costSeconds":30}],
        "success":"Page-turning brilliance!"},
        {"name":"Window",
        "clue":"I'm a hole in the wall that you cannot walk through; I let in the light and I show you the view.",
        "code":"PANE",
        "question":{"text":"Which arch of seven colours can you see from a window when the sun shines through rain?",
        "answer":"rainbow"},
        "hints":[{"text":"Red, orange, yellow, green, blue...","costSeconds":15},
        {"text":"Its name starts with the weather that made it.","costSeconds":40}],
        "success":"What a view!"},
        {"name":"Sink",
        "clue":"Turn on my tap and I splash and I pour; the plates come to me when the dinner's no more.",
        "code":"WATR",
        "puzzle":{"words":["tap","plug","drain","pillow"],"outsider":"pillow","link":"parts of a sink"},
        "hints":[{"text":"Look at the sink itself: which one do you not see there?","costSeconds":30}],
        "success":"Splashing success!"}
        ]}
        """
}
