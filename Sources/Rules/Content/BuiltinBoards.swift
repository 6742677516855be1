/// The dice boards that ship with the compound-words board game, one JSON document per board.
///
/// Each tile shows a question word from the board's list at a cell of an 8 × 5 grid (x 0…7, y 0…4); each path is
/// an undirected pair of tile ids, straight along a row or a column and one or two cells long, never jumping over
/// a tile.
enum BuiltinBoards {
    /// Every built-in board: its stable id and its JSON text.
    static let boards: [(id: String, json: String)] = [
        (id: "garden", json: garden),
        (id: "skogen", json: skogen),
    ]

    /// An English board on level-1 words: a ring round the edge with two crossings through the middle.
    private static let garden = """
        {"id":"garden","name":"The garden path","list":"en","level":1,
        "tiles":[
        {"id":1,"word":"sun","x":0,"y":0,"start":true},
        {"id":2,"word":"rain","x":2,"y":0},
        {"id":3,"word":"snow","x":4,"y":0},
        {"id":4,"word":"star","x":6,"y":0},
        {"id":5,"word":"foot","x":0,"y":2},
        {"id":6,"word":"bed","x":2,"y":2},
        {"id":7,"word":"fire","x":4,"y":2},
        {"id":8,"word":"sea","x":6,"y":2},
        {"id":9,"word":"cup","x":0,"y":4},
        {"id":10,"word":"pan","x":2,"y":4},
        {"id":11,"word":"bird","x":4,"y":4},
        {"id":12,"word":"door","x":6,"y":4},
        {"id":13,"word":"day","x":1,"y":2},
        {"id":14,"word":"hand","x":5,"y":4},
        {"id":15,"word":"gold","x":3,"y":0},
        {"id":16,"word":"cow","x":6,"y":3}
        ],
        "paths":[[1,2],[2,15],[15,3],[3,4],[1,5],[5,9],[5,13],[13,6],[6,7],[7,8],
        [9,10],[10,11],[11,14],[14,12],[4,8],[8,16],[16,12],[2,6],[7,11]]}
        """

    /// A Swedish board on level-1 words: two loops that share a middle, with short side trails.
    private static let skogen = """
        {"id":"skogen","name":"Stigen genom skogen","list":"sv","level":1,
        "tiles":[
        {"id":1,"word":"hus","x":0,"y":2,"start":true},
        {"id":2,"word":"bil","x":1,"y":2},
        {"id":3,"word":"båt","x":2,"y":2},
        {"id":4,"word":"sol","x":2,"y":0},
        {"id":5,"word":"snö","x":4,"y":0},
        {"id":6,"word":"fot","x":4,"y":2},
        {"id":7,"word":"boll","x":2,"y":4},
        {"id":8,"word":"sko","x":4,"y":4},
        {"id":9,"word":"bok","x":6,"y":0},
        {"id":10,"word":"mat","x":6,"y":2},
        {"id":11,"word":"fisk","x":6,"y":4},
        {"id":12,"word":"katt","x":7,"y":2},
        {"id":13,"word":"hund","x":7,"y":4},
        {"id":14,"word":"te","x":0,"y":0},
        {"id":15,"word":"ägg","x":0,"y":4},
        {"id":16,"word":"bi","x":7,"y":0},
        {"id":17,"word":"jul","x":7,"y":3}
        ],
        "paths":[[1,2],[2,3],[3,4],[4,5],[5,6],[6,3],[3,7],[7,8],[8,6],[5,9],[9,10],[10,6],
        [10,11],[11,8],[10,12],[11,13],[1,14],[14,4],[1,15],[15,7],[9,16],[16,12],[12,17],[17,13]]}
        """
}
