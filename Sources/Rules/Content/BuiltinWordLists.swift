/// The compound-word lists that ship with the reading trainer for children aged 6 to 9, in the original app's format.
///
/// A `# level N` line starts each level, easiest first. Every other line is `question: option option …`: an option
/// marked with `*` joins the question word into a real compound word (sun + flower = sunflower); an unmarked
/// option joins it into a non-word (sun + spoon). Every word is lower-case.
enum BuiltinWordLists {
    /// Every built-in list: a stable id, a display name, its language code and its text.
    static let lists: [(id: String, name: String, language: String, text: String)] = [
        (id: "sv", name: "Svenska sammansatta ord", language: "sv", text: swedish),
        (id: "en", name: "English compound words", language: "en", text: english),
    ]

    /// Swedish words spelled as they sound, everyday things a young child knows; harder spellings come last.
    private static let swedish = """
        # level 1
        sol: hatt* sken* stol* gris mus ost
        snö: boll* gubbe* storm* ost säng mun
        bil: väg* kö* dörr* fisk mun katt
        båt: hus* tur* ko ost säng hand
        fot: boll* spår* sula* mjölk lampa ost
        hus: båt* vagn* djur* glass boll fisk
        is: bit* björn* glass* mun bok säng
        ko: mjölk* hage* bil sol tak
        hund: mat* koja* sol båt ost
        katt: mat* unge* sand* bil sol glass
        boll: plan* spel* ko mun ost
        sko: snöre* affär* sol ko glass
        bok: hylla* affär* märke* fisk sol ko
        mat: bord* säck* låda* hatt sol katt
        fisk: pinne* nät* sol säng hatt
        ost: bit* hyvel* kaka* sol bil hund
        hand: duk* boll* ko ost sol
        bad: kar* rock* boll* ko ost bok
        te: kopp* kanna* bil hund sko
        ägg: skal* kopp* bil hund sko
        bi: kupa* hatt ko sol
        sand: låda* slott* ko mjölk hatt
        lek: plats* sak* park* sol fisk ost
        jul: gran* klapp* tomte* sol bil ko
        tåg: resa* spår* katt ost mun
        mus: fälla* hål* sol bil ost
        # level 2
        tand: borste* kräm* läkare* katt sol bil
        regn: båge* rock* moln* katt ost säng
        häst: sko* svans* ost glass bok
        fågel: bo* holk* sång* ost bil sko
        sten: mur* bro* hatt gris mjölk
        cykel: hjälm* väg* ost gris mun
        post: låda* bil* gris ost sol
        brand: bil* man* larm* ost katt glass
        polis: bil* hund* ko sol fisk
        flyg: plan* plats* ost tak säng
        kyl: skåp* väska* hund sol bok
        natt: lampa* linne* ko ost glass
        hals: duk* band* gris ost bil
        mål: vakt* ost gris sol
        kanin: bur* sol bil glass
        dörr: klocka* matta* fisk ko sol
        mjölk: tand* paket* glas* sol katt hatt
        träd: gård* koja* ost mus glass
        glass: bil* pinne* kiosk* fot ko näsa
        mun: spel* skydd* gris sol hatt
        sov: säck* rum* ko ost glass
        banan: skal* ko bil sko
        rygg: säck* ost ko sol
        # level 3
        vatten: glas* kran* pöl* hatt ko bok
        buss: kort* hållplats* sol fisk ost
        sommar: lov* stuga* gris tand mus
        vinter: jacka* lov* mössa* ko glass tand
        fönster: ruta* bräda* gris ost mun
        sjö: stjärna* gräs* bil sko hatt
        tomat: sås* soppa* sko bil katt
        jord: gubbe* bävning* sol hatt bok
        skridsko: bana* glass hatt bok
        choklad: kaka* bit* sko bil hund
        dator: mus* skärm* ost gris sol
        telefon: nummer* gris fisk hatt
        strand: boll* ost gris mun
        björn: bär* unge* bil sko ost
        kanel: bulle* gris bil hatt
        smör: gås* kniv* bil ko hatt
        frukost: bord* gris hatt sol
        korv: bröd* ko hatt sko
        löv: hög* gris bil ost
        kött: bulle* ko bil sko
        guld: fisk* ring* ko sol ost
        """

    /// Common, concrete English compounds whose two halves a young reader already knows; longer words come last.
    private static let english = """
        # level 1
        sun: flower* glasses* shine* spoon pig door
        rain: bow* coat* drop* cup book pig
        snow: man* ball* flake* cup pen egg
        foot: ball* print* step* cat tree cup
        bed: room* time* bug* cup sun fish
        cup: cake* dog sun hat
        pan: cake* dog hat shoe
        star: fish* light* cup pig hat
        fire: man* fly* work* cup pig hat
        bath: room* tub* dog sun cat
        day: time* light* dream* cup pig hat
        pop: corn* bed hat fish
        bird: house* cage* cup pen shoe
        hand: bag* shake* dog sun egg
        sea: shell* side* horse* cup hat book
        cow: boy* shed* cup sun egg
        dog: house* cup sun egg
        gold: fish* pig bed hat
        door: bell* mat* step* cat sun pig
        tea: pot* cup* spoon* dog sun hat
        cat: fish* walk* cup sun egg
        egg: shell* cup* dog sun pen
        # level 2
        tooth: brush* paste* ache* cat hat bird
        hair: brush* cut* band* dog sun egg
        post: man* box* card* cat sun pig
        sand: castle* box* paper* dog hat cup
        moon: light* beam* cat pen egg
        home: work* cat pig egg
        back: pack* yard* bone* cat hat sun
        air: plane* port* dog cake shoe
        jelly: fish* bean* hat dog sun
        eye: brow* lash* ball* pig hat sun
        butter: fly* cup* milk* dog hat pen
        lady: bird* bug* cup sun pen
        straw: berry* dog cup sun
        blue: berry* bird* bell* cup pig hat
        head: ache* phones* band* cat sun egg
        tree: house* top* cup pig egg
        shoe: lace* box* horn* dog sun pig
        book: shelf* case* mark* dog sun pig
        pea: nut* cock* pod* dog sun hat
        key: hole* board* ring* cat sun egg
        sail: boat* cup pig hat
        lunch: box* time* dog sun pig
        cheese: cake* dog sun hat
        milk: shake* man* dog sun bed
        mail: box* man* dog sun egg
        class: room* mate* dog sun egg
        note: book* pad* cat sun egg
        play: ground* time* house* cat sun egg
        # level 3
        water: fall* melon* hat pen egg
        pine: apple* cone* dog hat bed
        grand: mother* father* son* cup pig egg
        birth: day* cat cup hat
        arm: chair* band* dog sun egg
        wheel: chair* barrow* dog sun cake
        skate: board* dog cup sun
        light: house* cat cup egg
        honey: bee* comb* cat sun pen
        earth: quake* worm* cat cup hat
        thunder: storm* cup hat egg
        rattle: snake* cup sun bed
        grass: hopper* land* cup sun hat
        table: cloth* spoon* dog sun hat
        paint: brush* dog sun cup
        news: paper* cat cup sun
        week: end* day* cat cup hat
        basket: ball* dog sun cup
        police: man* woman* cat sun cup
        dish: washer* cloth* dog sun egg
        sweet: corn* heart* dog cup sun
        hedge: hog* cup sun pen
        finger: nail* print* dog sun cup
        """
}
