import Foundation

/// The question packs that ship with the host, written for Shaky Words; they are read-only and can only be copied.
///
/// Each pack's questions live in one multi-line string, one question a line in the form
/// `difficulty|question text|answer`, parsed once on first use (this keeps compile times low).
/// Every line must parse: a malformed line is a programming error and stops the program on first use,
/// which the built-in pack tests catch.
public enum BuiltinPacks {
    /// Every built-in pack, in the order they are listed to operators.
    public static let all: [QuizPack] = sources.map { source in
        QuizPack(id: source.id, name: source.name, isBuiltin: true, questions: parseLines(source.lines))
    }

    /// The built-in pack whose id is `id`, or nil when there is none.
    public static func pack(id: String) -> QuizPack? {
        all.first { $0.id == id }
    }

    /// One pack's raw text and identity.
    struct Source: Sendable {
        var id: String
        var name: String
        var lines: String
    }

    /// The raw packs, in listing order.
    static let sources: [Source] = [
        Source(id: "science", name: "Science", lines: science),
        Source(id: "geography", name: "Geography", lines: geography),
        Source(id: "history", name: "History", lines: history),
        Source(id: "animals", name: "Animals", lines: animals),
        Source(id: "food", name: "Food & Drink", lines: food),
        Source(id: "music", name: "Music", lines: music),
        Source(id: "sport", name: "Sport & Games", lines: sport),
        Source(id: "words", name: "Words & Language", lines: words),
        Source(id: "space", name: "Space", lines: space),
        Source(id: "myths", name: "Stories & Myths", lines: myths),
    ]

    /// Parses `difficulty|question|answer` lines, skipping blank ones; any other malformed line is a bug.
    static func parseLines(_ text: String) -> [QuizQuestion] {
        var questions: [QuizQuestion] = []
        for rawLine in text.split(whereSeparator: \.isNewline) {
            let line = trimmed(rawLine)
            if line.isEmpty { continue }
            let parts = line.split(separator: "|", omittingEmptySubsequences: false)
            guard parts.count == 3, let difficulty = Difficulty(rawValue: trimmed(parts[0])) else {
                preconditionFailure("Malformed built-in question line: \(line)")
            }
            questions.append(QuizQuestion(difficulty: difficulty, text: trimmed(parts[1]), answer: trimmed(parts[2])))
        }
        return questions
    }

    private static func trimmed(_ text: Substring) -> String {
        text.trimmingCharacters(in: .whitespaces)
    }

    static let science = """
        easy|What gas do plants take in from the air to make their food?|Carbon dioxide
        easy|What is the everyday name for H2O?|Water
        easy|What force pulls objects towards the ground?|Gravity
        easy|What is the hardest natural substance on Earth?|Diamond
        easy|Which organ pumps blood around the body?|Heart
        easy|What do we call water when it freezes solid?|Ice
        easy|What is the largest organ of the human body?|Skin
        easy|Which gas do we need to breathe in to stay alive?|Oxygen
        easy|Which instrument is used to measure temperature?|Thermometer
        easy|What do bees collect from flowers to make honey?|Nectar
        easy|Which part of a plant takes up water from the soil?|Roots
        easy|What are the tiny building blocks that all living things are made of?|Cells
        easy|Which curved bones protect your heart and lungs?|Ribs
        easy|What kind of energy do panels on a roof collect from sunlight?|Solar
        easy|What is it called when water slowly turns into vapour as it warms up?|Evaporation
        easy|Which organ inside your skull do you think with?|Brain
        medium|Which metal has the chemical symbol Au?|Gold
        medium|Which metal has the chemical symbol Fe?|Iron
        medium|Which gas makes up most of the Earth's atmosphere?|Nitrogen
        medium|Which tiny particle with a negative charge moves around the nucleus of an atom?|Electron
        medium|What is the process called in which plants use sunlight to make their food?|Photosynthesis
        medium|Which type of blood vessel carries blood away from the heart?|Artery
        medium|Which metal is a liquid at room temperature?|Mercury
        medium|What is the name for a substance that speeds up a chemical reaction without being used up?|Catalyst
        medium|What is the longest bone in the human body?|Femur
        medium|Which green pigment lets plants capture light?|Chlorophyll
        medium|What type of rock forms when lava or magma cools?|Igneous
        medium|Which very light gas is used to make party balloons float?|Helium
        medium|Which scientist developed the theory of relativity?|Einstein
        medium|What do we call an animal that eats only plants?|Herbivore
        medium|Which unit of power is named after a Scottish engineer who improved the steam engine?|Watt
        medium|What is the name for the band of colours made when white light passes through a prism?|Spectrum
        hard|Which element has the chemical symbol K?|Potassium
        hard|Which element has the chemical symbol Na?|Sodium
        hard|Which element has the chemical symbol Pb?|Lead
        hard|What is the SI unit of force?|Newton
        hard|Who discovered penicillin in 1928?|Fleming
        hard|Which naturalist wrote "On the Origin of Species"?|Darwin
        hard|What is the name for a single particle of light?|Photon
        hard|Which part of a cell is known as its powerhouse?|Mitochondria
        hard|What is the name of the scale used to rate the hardness of minerals?|Mohs
        hard|Which gas with the formula O3 forms a protective layer high in the atmosphere?|Ozone
        hard|What type of chemical bond forms when atoms share pairs of electrons?|Covalent
        hard|Who was the first person to win Nobel Prizes in two different sciences?|Curie
        hard|What is the study of fungi called?|Mycology
        hard|What is it called when a solid turns straight into a gas without melting first?|Sublimation
        hard|Which particle in the nucleus of an atom has no electric charge?|Neutron
        hard|What kind of lens is thicker in the middle than at its edges?|Convex
        hard|Which layer of the Earth lies between the crust and the core?|Mantle
        hard|Which unit measures electrical resistance?|Ohm
        """

    static let geography = """
        easy|What is the capital city of France?|Paris
        easy|What is the largest ocean on Earth?|Pacific
        easy|On which continent is Egypt?|Africa
        easy|What is the capital city of Japan?|Tokyo
        easy|Which European country is shaped like a boot?|Italy
        easy|What is the largest desert in Africa?|Sahara
        easy|What is the capital city of the United Kingdom?|London
        easy|Which is the coldest continent?|Antarctica
        easy|What is the capital city of Italy?|Rome
        easy|Which country has a red maple leaf on its flag?|Canada
        easy|What is the capital city of Spain?|Madrid
        easy|Which is the largest continent?|Asia
        easy|Which country is home to the city of Sydney and the kangaroo?|Australia
        easy|What is the capital city of Germany?|Berlin
        easy|What is the highest mountain in the world?|Everest
        easy|What is the name of the imaginary line around the middle of the Earth?|Equator
        medium|What is the longest river in South America?|Amazon
        medium|What is the capital city of Canada?|Ottawa
        medium|What is the capital city of Australia?|Canberra
        medium|Which country has the largest population in South America?|Brazil
        medium|In which country is the city of Marrakesh?|Morocco
        medium|What is the capital city of Egypt?|Cairo
        medium|Which sea lies between southern Europe and North Africa?|Mediterranean
        medium|What is the capital city of Russia?|Moscow
        medium|Which US state is made up entirely of islands in the Pacific Ocean?|Hawaii
        medium|What is the capital city of Argentina?|Buenos Aires
        medium|Which Italian city is built on canals and famous for its gondolas?|Venice
        medium|Which river flows through Paris?|Seine
        medium|What is the smallest country in the world?|Vatican City
        medium|Which country's capital is Lisbon?|Portugal
        medium|What is the longest river in Africa?|Nile
        medium|Which river flows through London?|Thames
        medium|Which very salty lake between Israel and Jordan lets people float easily?|Dead Sea
        hard|What is the capital city of New Zealand?|Wellington
        hard|What is the longest river in Europe?|Volga
        hard|What is the capital city of Peru?|Lima
        hard|Which country's capital is Reykjavik?|Iceland
        hard|What is the deepest lake in the world?|Baikal
        hard|In which country is most of the Atacama Desert?|Chile
        hard|Which Venezuelan waterfall is the highest in the world?|Angel Falls
        hard|Which country's capital is Hanoi?|Vietnam
        hard|What is the largest island in the world that is not a continent?|Greenland
        hard|In which city does the Swiss government sit?|Bern
        hard|What is the highest mountain in Africa?|Kilimanjaro
        hard|What is the capital city of Hungary?|Budapest
        hard|What is the largest country in Africa by area?|Algeria
        hard|Which strait separates Asia from North America?|Bering
        hard|What is the capital city of Norway?|Oslo
        hard|Which mountain range is the traditional boundary between Europe and Asia?|Urals
        hard|In which ocean is the island of Madagascar?|Indian
        hard|Which country's capital is Bogotá?|Colombia
        """

    static let history = """
        easy|Which ancient people built the pyramids of Giza?|Egyptians
        easy|Who was the first President of the United States?|Washington
        easy|Which great ship sank in 1912 after hitting an iceberg?|Titanic
        easy|What were the seafaring raiders from Scandinavia around AD 800 to 1050 called?|Vikings
        easy|Which queen of ancient Egypt was linked with Julius Caesar and Mark Antony?|Cleopatra
        easy|In which country were the ancient Olympic Games held?|Greece
        easy|Who was the first person to walk on the Moon?|Armstrong
        easy|Which French emperor was defeated at the Battle of Waterloo?|Napoleon
        easy|Which explorer sailed across the Atlantic to the Americas in 1492?|Columbus
        easy|Which nurse was known as "The Lady with the Lamp"?|Nightingale
        easy|What was an ancient Egyptian king called?|Pharaoh
        easy|Which language did the ancient Romans speak?|Latin
        easy|The Great Fire of 1666 destroyed much of which city?|London
        easy|Which brothers made the first powered aeroplane flight in 1903?|Wright
        easy|What did the ancient Egyptians write on, made from a reed that grows by the Nile?|Papyrus
        easy|Which ship carried the Pilgrims across the Atlantic to America in 1620?|Mayflower
        medium|Who was the British Prime Minister for most of the Second World War?|Churchill
        medium|Which South American people built Machu Picchu?|Inca
        medium|What was the ancient trade route linking China with the Mediterranean called?|Silk Road
        medium|Which British queen reigned for over 63 years from 1837?|Victoria
        medium|Who painted the ceiling of the Sistine Chapel?|Michelangelo
        medium|Which ancient wonder was a giant statue of the sun god Helios on the island of Rhodes?|Colossus
        medium|Which charter, sealed by King John in 1215, limited the power of the king?|Magna Carta
        medium|Which country gave the Statue of Liberty to the United States?|France
        medium|Who was the first woman to become Prime Minister of the United Kingdom?|Thatcher
        medium|What name is given to the "rebirth" of European art and learning that began in Italy in the 14th century?|Renaissance
        medium|Which Mongol leader founded one of the largest land empires in history?|Genghis Khan
        medium|In which city was President John F. Kennedy assassinated in 1963?|Dallas
        medium|Which Roman town was buried when Mount Vesuvius erupted in AD 79?|Pompeii
        medium|Which German city was divided by a wall from 1961 to 1989?|Berlin
        medium|Which English king had six wives?|Henry
        medium|Who was the first emperor of Rome?|Augustus
        medium|Which Greek city-state was famous for its tough, disciplined warriors?|Sparta
        hard|In 1066, at which battle did William the Conqueror defeat King Harold?|Hastings
        hard|In which present-day country is the battlefield of Waterloo?|Belgium
        hard|Which Carthaginian general crossed the Alps with war elephants?|Hannibal
        hard|Which explorer led the first expedition to sail around the world, though he died on the way?|Magellan
        hard|Which empire was ruled by Suleiman the Magnificent?|Ottoman
        hard|Which Babylonian king had a famous code of laws carved on a stone pillar?|Hammurabi
        hard|What name was given to the plague that swept across Europe in the late 1340s?|Black Death
        hard|Which city, built on an island in a lake, was the capital of the Aztec Empire?|Tenochtitlan
        hard|Which English queen was known as the Virgin Queen?|Elizabeth
        hard|Who led the Soviet Union during the Second World War?|Stalin
        hard|Which Roman emperor gave his name to a wall across northern England?|Hadrian
        hard|Which ancient writing system used wedge-shaped marks pressed into clay?|Cuneiform
        hard|Who led India's non-violent campaign for independence from British rule?|Gandhi
        hard|Which river did Julius Caesar cross in 49 BC, starting a civil war?|Rubicon
        hard|Which French heroine led an army in the Hundred Years' War and was burned in 1431?|Joan of Arc
        hard|On which ship did Charles Darwin sail around the world?|Beagle
        hard|What was the former name of Istanbul, capital of the Byzantine Empire?|Constantinople
        """

    static let animals = """
        easy|What is the largest animal that has ever lived?|Blue whale
        easy|What is a baby frog called?|Tadpole
        easy|Which animal is known as the king of the jungle?|Lion
        easy|What is the tallest animal in the world?|Giraffe
        easy|What is a baby dog called?|Puppy
        easy|Which African animal looks like a horse with black and white stripes?|Zebra
        easy|What is the fastest land animal?|Cheetah
        easy|Which black-and-white bear from the mountains of China eats mostly bamboo?|Panda
        easy|Which animal uses its long trunk to drink and pick things up?|Elephant
        easy|Which flightless black-and-white bird lives in Antarctica?|Penguin
        easy|Which sea creature has eight arms covered in suckers?|Octopus
        easy|Which farm animal says "moo"?|Cow
        easy|What is a baby cat called?|Kitten
        easy|Which Australian animal hops and carries its baby in a pouch?|Kangaroo
        easy|What do we call a group of wolves?|Pack
        easy|Which insect makes honey?|Bee
        medium|What is a group of lions called?|Pride
        medium|What is the largest species of big cat?|Tiger
        medium|Which is the only mammal that can truly fly?|Bat
        medium|What is the largest bird in the world?|Ostrich
        medium|What is a baby kangaroo called?|Joey
        medium|Which lizard is famous for changing its colour?|Chameleon
        medium|What is a female horse called?|Mare
        medium|What do we call an animal that eats both plants and meat?|Omnivore
        medium|Which tiny bird can hover and even fly backwards?|Hummingbird
        medium|What is a baby goat called?|Kid
        medium|Which egg-laying Australian mammal has a bill like a duck?|Platypus
        medium|What is a young swan called?|Cygnet
        medium|What is the largest primate?|Gorilla
        medium|What is the largest fish in the sea?|Whale shark
        medium|Which slow-moving mammal spends most of its life hanging upside down in rainforest trees?|Sloth
        medium|What is a male bee called?|Drone
        medium|What kind of animal is a gecko?|Lizard
        hard|Which scaly mammal rolls into a ball and eats ants?|Pangolin
        hard|What is a group of owls called?|Parliament
        hard|Which seabird has the largest wingspan of any living bird?|Albatross
        hard|What is a baby hedgehog called?|Hoglet
        hard|What is a male duck called?|Drake
        hard|Which Australian animal has fingerprints very like a human's?|Koala
        hard|What is the largest living lizard?|Komodo dragon
        hard|Which New Zealand bird lays one of the largest eggs for its body size?|Kiwi
        hard|What is the name for a mammal, like a wombat, whose young grow in a pouch?|Marsupial
        hard|Which bird of prey is the fastest animal in a dive?|Peregrine falcon
        hard|Which Mexican salamander can regrow lost limbs and keeps its gills as an adult?|Axolotl
        hard|What is a female fox called?|Vixen
        hard|What is a baby hare called?|Leveret
        hard|Which land mammal has the longest pregnancy, lasting almost two years?|Elephant
        hard|What is a group of geese on the ground called?|Gaggle
        hard|Which sea creature has three hearts and blue blood?|Octopus
        hard|What is the largest species of penguin?|Emperor
        hard|Which fish can swallow water to puff itself up into a spiky ball?|Pufferfish
        """

    static let food = """
        easy|Which fruit is said to keep the doctor away if you eat one a day?|Apple
        easy|Which long yellow fruit do you peel before eating?|Banana
        easy|Which Italian dish is a flat round bread topped with tomato and cheese?|Pizza
        easy|What is made by churning cream until it turns solid?|Butter
        easy|Which orange vegetable are rabbits said to love?|Carrot
        easy|What is a dried grape called?|Raisin
        easy|Which hot drink is made from roasted, ground beans?|Coffee
        easy|Which drink is made by pouring hot water on dried leaves?|Tea
        easy|Which sweet, sticky food do bees make?|Honey
        easy|Which Italian food comes in shapes like spaghetti, penne and fusilli?|Pasta
        easy|Which red fruit is the main ingredient of ketchup?|Tomato
        easy|Which Japanese dish is made of vinegared rice, often with raw fish?|Sushi
        easy|Which sweet treat is made from cocoa beans?|Chocolate
        easy|Which fruit is dried to make a prune?|Plum
        easy|Which green fruit is the main ingredient of guacamole?|Avocado
        easy|What do hens lay that you can boil, fry or scramble?|Eggs
        medium|What is the main ingredient of hummus?|Chickpeas
        medium|Which country does paella come from?|Spain
        medium|What type of pastry is used to make profiteroles and eclairs?|Choux
        medium|Which expensive spice comes from the threads of crocus flowers?|Saffron
        medium|Which nut is the main ingredient of marzipan?|Almond
        medium|What is the spicy green paste, related to horseradish, served with sushi?|Wasabi
        medium|Which soft white cheese is used on a classic pizza Margherita?|Mozzarella
        medium|Which fruit has its seeds on the outside?|Strawberry
        medium|Which crumbly Greek cheese is made mainly from sheep's milk?|Feta
        medium|Which herb is the main ingredient of pesto?|Basil
        medium|Which vegetable is fermented to make sauerkraut?|Cabbage
        medium|What is the clarified butter used in Indian cooking called?|Ghee
        medium|Which creamy Italian rice dish is cooked slowly with stock?|Risotto
        medium|Which grain is used to make porridge?|Oats
        medium|Which red spice made from dried peppers gives Hungarian goulash its colour?|Paprika
        medium|Which spiky Southeast Asian fruit is famous for its strong smell?|Durian
        medium|Which grain is the Japanese drink sake brewed from?|Rice
        hard|Which spice comes from the inner bark of a tree?|Cinnamon
        hard|What is the name of the Japanese paste made from fermented soybeans?|Miso
        hard|In which country was Roquefort cheese first made?|France
        hard|What is the name of the cold Spanish soup made from tomatoes and peppers?|Gazpacho
        hard|Which thin pasta's name means "little worms" in Italian?|Vermicelli
        hard|Which Indian flatbread is baked on the wall of a tandoor oven?|Naan
        hard|Which Scottish dish is made from sheep's offal, oats and spices?|Haggis
        hard|Which Italian dessert is made with coffee-soaked sponge fingers and mascarpone?|Tiramisu
        hard|Which yellow spice gives many curries their golden colour?|Turmeric
        hard|Which Greek baked dish has layers of aubergine and minced meat?|Moussaka
        hard|Which seed is ground to make tahini?|Sesame
        hard|Which French sauce is made from butter, egg yolks and lemon juice?|Hollandaise
        hard|Which fruit, when dried, becomes a sultana?|Grape
        hard|What is the Japanese dish of thinly sliced raw fish served without rice?|Sashimi
        hard|Which Swiss dish is a pot of melted cheese into which bread is dipped?|Fondue
        hard|Which rare fungus, sniffed out by pigs or dogs, grows underground?|Truffle
        hard|Which small nuts are used in pesto alongside the basil?|Pine nuts
        """

    static let music = """
        easy|Which instrument has black and white keys?|Piano
        easy|Which instrument usually has six strings and is often strummed?|Guitar
        easy|Which instrument do you hit with sticks to keep the beat in a band?|Drums
        easy|Which brass instrument has a long slide?|Trombone
        easy|What do we call a group of four musicians or singers?|Quartet
        easy|Who stands in front of an orchestra and leads it with a baton?|Conductor
        easy|Which famous composer kept writing music after he became deaf?|Beethoven
        easy|What is a gentle song sung to help a baby sleep?|Lullaby
        easy|Which small four-stringed guitar comes from Hawaii?|Ukulele
        easy|What are the words of a song called?|Lyrics
        easy|Which large plucked instrument has a frame shaped like a triangle?|Harp
        easy|What is a large group of musicians with strings, woodwind, brass and percussion called?|Orchestra
        easy|Which is the smallest and highest-pitched string instrument in an orchestra?|Violin
        easy|Which wooden or plastic wind instrument do many children learn at school?|Recorder
        easy|What do you call a group of people who sing together?|Choir
        easy|What is a piece of music for one performer called?|Solo
        medium|Which Italian word tells musicians to play loudly?|Forte
        medium|What is the speed of a piece of music called?|Tempo
        medium|Which composer wrote "The Four Seasons"?|Vivaldi
        medium|Which woodwind instrument is held sideways to play?|Flute
        medium|What is a song for one singer in an opera called?|Aria
        medium|Which family of instruments includes the trumpet and the tuba?|Brass
        medium|Which composer wrote the opera "The Magic Flute"?|Mozart
        medium|Which is the lowest-pitched instrument in the brass family?|Tuba
        medium|Which symbol at the start of a stave shows the pitch of the notes?|Clef
        medium|What is the name for three or more notes played together?|Chord
        medium|Which Polish composer is famous for his piano nocturnes?|Chopin
        medium|Which double-reed woodwind instrument gives the note to tune the orchestra?|Oboe
        medium|Which woodwind instrument was invented by Adolphe Sax?|Saxophone
        medium|Which German composer wrote the "Brandenburg Concertos"?|Bach
        medium|Which Scottish instrument has a bag, a chanter and drones?|Bagpipes
        medium|What is the highest female singing voice?|Soprano
        medium|Which instrument did jazz star Louis Armstrong famously play?|Trumpet
        hard|Which composer wrote the music for the ballet "The Nutcracker"?|Tchaikovsky
        hard|What is a piece for a solo instrument and orchestra called?|Concerto
        hard|Which Italian term means gradually getting louder?|Crescendo
        hard|Which long-necked Indian string instrument was made famous by Ravi Shankar?|Sitar
        hard|Which composer wrote the opera "Carmen"?|Bizet
        hard|What is the interval from one note to the next note of the same name, eight notes higher?|Octave
        hard|Which Norwegian composer wrote "In the Hall of the Mountain King"?|Grieg
        hard|What is a group of five musicians called?|Quintet
        hard|What is the lowest male singing voice?|Bass
        hard|Which Italian term tells musicians to play notes smoothly and connected?|Legato
        hard|Which Aboriginal Australian wind instrument is made from a hollowed-out eucalyptus branch?|Didgeridoo
        hard|Which Austrian composer wrote "The Blue Danube" waltz?|Strauss
        hard|Which Italian composer wrote the operas "La Traviata" and "Aida"?|Verdi
        hard|What is the Italian term for short, detached notes?|Staccato
        hard|Which Russian composer wrote "The Rite of Spring"?|Stravinsky
        hard|What is a short piece written to practise a particular playing technique?|Etude
        hard|On which Caribbean island did reggae music begin?|Jamaica
        hard|Which percussion instrument has tuned wooden bars struck with mallets?|Xylophone
        """

    static let sport = """
        easy|In which sport do players hit a shuttlecock over a net?|Badminton
        easy|In which sport might you score a hole in one?|Golf
        easy|Which sport is played on the grass courts of Wimbledon?|Tennis
        easy|Which sporting event has a flag with five interlocking rings?|Olympics
        easy|In which sport does a bowler try to hit the batter's wicket?|Cricket
        easy|Which sport is played on ice with sticks and a puck?|Hockey
        easy|In which sport can a player score with a slam dunk?|Basketball
        easy|In which sport do two fighters wearing padded gloves compete in a ring?|Boxing
        easy|What is the word for a score of zero in tennis?|Love
        easy|In which sport do teams push against each other in a scrum?|Rugby
        easy|In which sport do you ride waves on a board?|Surfing
        easy|In which sport do you roll a ball to knock down ten pins?|Bowling
        easy|What is the long-distance running race of about 42 kilometres called?|Marathon
        easy|Which player tries to stop the ball going into the net in football?|Goalkeeper
        easy|In which sport do you shoot arrows at a target?|Archery
        easy|In which board game can you win by checkmate?|Chess
        medium|In which city were the first modern Olympic Games held in 1896?|Athens
        medium|In which country was judo invented?|Japan
        medium|What is the famous bicycle race around France held every summer?|Tour de France
        medium|What is it called in ten-pin bowling when you get three strikes in a row?|Turkey
        medium|In which sport do athletes perform on the pommel horse and the rings?|Gymnastics
        medium|In which sport do teams compete for the Stanley Cup?|Ice hockey
        medium|Which Japanese style of wrestling features huge wrestlers in a ring?|Sumo
        medium|In which sport do players slide stones across ice and sweep with brooms?|Curling
        medium|In which sport do nations compete for the Davis Cup?|Tennis
        medium|Which sport comes first in a standard triathlon?|Swimming
        medium|In which sport do competitors use a foil, an épée or a sabre?|Fencing
        medium|In golf, what is a score of one under par on a hole called?|Birdie
        medium|In tennis, what is a serve the opponent cannot touch called?|Ace
        medium|In which sport does the leader of a race wear a yellow jersey?|Cycling
        medium|Which Olympic event is made up of ten track and field events?|Decathlon
        medium|Which Korean martial art is famous for its high kicks?|Taekwondo
        medium|Which Japanese martial art's name means "empty hand"?|Karate
        medium|What is the race in which runners pass a baton to teammates called?|Relay
        hard|In golf, what is a score of two under par on a hole called?|Eagle
        hard|In which athletics event might you see the Fosbury flop?|High jump
        hard|In which sport is the America's Cup contested?|Sailing
        hard|Which country hosted the first football World Cup in 1930?|Uruguay
        hard|In cricket, what is a score of zero called?|Duck
        hard|Which Irish sport is played with a stick called a hurley?|Hurling
        hard|In which sport did the term "hat-trick" first appear?|Cricket
        hard|Where in ancient Greece were the original Olympic Games held, in honour of Zeus?|Olympia
        hard|Which famous horse race is run at Epsom Downs?|Derby
        hard|In which sport do jumpers land in the telemark position?|Ski jumping
        hard|Which Japanese martial art's name means "gentle way"?|Judo
        hard|In which sport do skaters perform jumps such as the triple axel?|Figure skating
        hard|In baseball, what is a hit that lets the batter run round all the bases and score?|Home run
        hard|In which athletics event is a heavy metal ball thrown from the shoulder?|Shot put
        hard|In which sport is a period of play called a chukka?|Polo
        hard|Which racket sport is played by hitting a ball against the walls of a closed court?|Squash
        hard|Which sport's world governing body is FIFA?|Football
        """

    static let words = """
        easy|What is the opposite of "hot"?|Cold
        easy|What is the plural of "mouse"?|Mice
        easy|What do we call a word that means the same as another word?|Synonym
        easy|What do we call a word that means the opposite of another word?|Antonym
        easy|What is the past tense of "run"?|Ran
        easy|What is the plural of "child"?|Children
        easy|What is the opposite of "early"?|Late
        easy|What is the plural of "goose"?|Geese
        easy|What is the past tense of "eat"?|Ate
        easy|Which book lists words in alphabetical order with their meanings?|Dictionary
        easy|What is the opposite of "always"?|Never
        easy|What is the plural of "tooth"?|Teeth
        easy|What kind of word describes a noun, like "big" or "red"?|Adjective
        easy|What kind of word is a doing word, like "jump" or "sing"?|Verb
        easy|What is the plural of "foot"?|Feet
        easy|Which language is mainly spoken in Mexico?|Spanish
        easy|In which language is "bonjour" a greeting?|French
        medium|What is a word that reads the same backwards and forwards, like "level"?|Palindrome
        medium|What is a word made by rearranging the letters of another, like "listen" and "silent"?|Anagram
        medium|What is the plural of "cactus" in its Latin form?|Cacti
        medium|What is the shortened form of a word, like "Dr" for "doctor", called?|Abbreviation
        medium|What is the past tense of "swim"?|Swam
        medium|Which language has the most native speakers in the world?|Mandarin
        medium|What is the official language of Brazil?|Portuguese
        medium|What is the plural of "ox"?|Oxen
        medium|What kind of word, like "and" or "but", joins parts of a sentence together?|Conjunction
        medium|What is a word formed from the first letters of other words, like "NATO"?|Acronym
        medium|Which punctuation mark shows possession, as in "the dog's bone"?|Apostrophe
        medium|What does a bibliophile love?|Books
        medium|What is a short story with animals that teaches a lesson, like those of Aesop?|Fable
        medium|What is the plural of "crisis"?|Crises
        medium|What is a three-line Japanese poem called?|Haiku
        medium|From which language does English get the word "kindergarten"?|German
        medium|What kind of word, like "quickly", describes how a verb is done?|Adverb
        medium|What is the study of where words come from called?|Etymology
        hard|What is the term for a word that imitates a sound, like "buzz" or "sizzle"?|Onomatopoeia
        hard|What is the fear of spiders called?|Arachnophobia
        hard|What is the plural of "phenomenon"?|Phenomena
        hard|From which language does English get the word "algebra"?|Arabic
        hard|What is a figure of speech that compares things using "like" or "as"?|Simile
        hard|What is a poem of fourteen lines called?|Sonnet
        hard|What is the repetition of the same starting sound, as in "Peter Piper picked a peck"?|Alliteration
        hard|What is the wavy mark over the "n" in "señor" called?|Tilde
        hard|What is a deliberately exaggerated statement, like "I've told you a million times", called?|Hyperbole
        hard|What is a sentence that uses every letter of the alphabet called?|Pangram
        hard|Which East African language is widely spoken in Kenya and Tanzania?|Swahili
        hard|What is a person who speaks many languages called?|Polyglot
        hard|What is the small dot over a lowercase "i" or "j" called?|Tittle
        hard|Which punctuation mark joins two closely related clauses and looks like a comma under a dot?|Semicolon
        hard|What is the symbol "&" called?|Ampersand
        hard|What is a mild word used in place of a harsh one, like "passed away" for "died"?|Euphemism
        hard|What is a person who writes dictionaries called?|Lexicographer
        hard|What is the fear of heights called?|Acrophobia
        hard|What is the rhythm of ten syllables per line, with alternating stress, used by Shakespeare?|Iambic pentameter
        """

    static let space = """
        easy|Which planet do we live on?|Earth
        easy|Which star is closest to the Earth?|Sun
        easy|Which planet is known as the Red Planet?|Mars
        easy|What is the largest planet in our solar system?|Jupiter
        easy|Which planet is famous for its bright rings?|Saturn
        easy|What natural satellite orbits the Earth?|Moon
        easy|Which planet is closest to the Sun?|Mercury
        easy|What do we call a person trained to travel into space?|Astronaut
        easy|What is a group of stars that forms a picture in the sky called?|Constellation
        easy|What is the name of our galaxy?|Milky Way
        easy|What do we call a space rock that lands on the Earth?|Meteorite
        easy|Which is the hottest planet in our solar system?|Venus
        easy|What is an icy object with a long glowing tail called?|Comet
        easy|What is the path of a planet around the Sun called?|Orbit
        easy|What instrument do astronomers use to see faraway objects?|Telescope
        easy|What is a scientist who studies stars and planets called?|Astronomer
        medium|Which planet is farthest from the Sun?|Neptune
        medium|What was the name of the first artificial satellite, launched in 1957?|Sputnik
        medium|Who was the first human to travel into space?|Gagarin
        medium|Which planet rotates on its side?|Uranus
        medium|What is the largest moon of Saturn?|Titan
        medium|Which NASA programme first landed astronauts on the Moon?|Apollo
        medium|What is the huge explosion of a dying star called?|Supernova
        medium|Which dwarf planet was once counted as the ninth planet?|Pluto
        medium|What are the small rocky bodies orbiting between Mars and Jupiter called?|Asteroids
        medium|What is the boundary around a black hole beyond which nothing can escape?|Event horizon
        medium|What is the name of the giant storm on Jupiter?|Great Red Spot
        medium|What was the name of the Apollo 11 lunar module?|Eagle
        medium|Which planet takes longer to spin once on its axis than to travel once around the Sun?|Venus
        medium|Which space telescope was launched in 1990?|Hubble
        medium|What is the point in the sky directly above an observer called?|Zenith
        medium|Which gas makes up most of the Sun?|Hydrogen
        medium|What are the dark, cooler patches on the Sun's surface called?|Sunspots
        hard|What is the largest moon of Jupiter?|Ganymede
        hard|Which moon of Jupiter has an icy crust over a hidden ocean?|Europa
        hard|What is the nearest large spiral galaxy to the Milky Way?|Andromeda
        hard|Which astronomer published the idea that the Earth orbits the Sun in 1543?|Copernicus
        hard|What is the larger of the two moons of Mars?|Phobos
        hard|What is the name of the giant volcano on Mars, the tallest known in the solar system?|Olympus Mons
        hard|What is the name of the star system nearest to the Sun?|Alpha Centauri
        hard|What is a rapidly spinning neutron star that sends out beams like a lighthouse called?|Pulsar
        hard|What name is given to the average distance between the Earth and the Sun, used as a unit?|Astronomical unit
        hard|Which planet is orbited by the moon Triton?|Neptune
        hard|What is the outer atmosphere of the Sun, seen during a total eclipse, called?|Corona
        hard|What was the name of the dog that became the first animal to orbit the Earth?|Laika
        hard|Whose comet returns to the inner solar system about every 76 years?|Halley
        hard|Which astronomer discovered the four largest moons of Jupiter in 1610?|Galileo
        hard|What is the belt of icy bodies beyond Neptune called?|Kuiper belt
        hard|Which twin NASA probes, launched in 1977, flew past the giant planets and later reached interstellar space?|Voyager
        hard|What is the theory that the universe began in a hot, dense state and has been expanding ever since?|Big Bang
        hard|What is the Moon's shape called when less than half of it is lit?|Crescent
        hard|Which moon of Saturn shoots geysers of water ice into space?|Enceladus
        hard|Which element does the Sun make by fusing hydrogen?|Helium
        """

    static let myths = """
        easy|Which wooden animal did the Greeks hide soldiers inside to get into Troy?|Horse
        easy|What did Cinderella leave behind at the ball?|Slipper
        easy|Which fairy-tale girl meets a wolf on the way to her grandmother's house?|Red Riding Hood
        easy|In the fairy tale, who climbed a beanstalk to a giant's castle?|Jack
        easy|What did the first of the three little pigs build his house from?|Straw
        easy|Who is the king of the gods in Greek myth?|Zeus
        easy|Which mythical creature is a horse with a single horn?|Unicorn
        easy|Which monster of Greek myth had snakes for hair and turned people to stone?|Medusa
        easy|In the story, whose nose grew longer every time he told a lie?|Pinocchio
        easy|Which Norse god of thunder carries a mighty hammer?|Thor
        easy|Which fairy-tale girl let down her long hair from a tower?|Rapunzel
        easy|Which outlaw of English legend robbed the rich to give to the poor?|Robin Hood
        easy|What did Aladdin rub to call up a genie?|Lamp
        easy|Which girl tasted the porridge of the three bears?|Goldilocks
        easy|In Aesop's fable, which animal lost a race to a tortoise?|Hare
        easy|Which princess slept for a hundred years after pricking her finger on a spindle?|Sleeping Beauty
        easy|Which legendary king of Britain pulled a sword from a stone?|Arthur
        medium|Who is the Greek god of the sea?|Poseidon
        medium|What is the name of King Arthur's sword, given to him by the Lady of the Lake?|Excalibur
        medium|Which Greek hero could only be wounded in his heel?|Achilles
        medium|Who is the Roman god of war?|Mars
        medium|What is the name of the winged horse of Greek myth?|Pegasus
        medium|Which mythical bird is reborn from its own ashes?|Phoenix
        medium|Who opened a jar that released all the evils into the world?|Pandora
        medium|Which one-eyed Norse god is the father of the gods?|Odin
        medium|Which half-man, half-bull monster lived in the Labyrinth of Crete?|Minotaur
        medium|Who flew too close to the Sun on wings of feathers and wax?|Icarus
        medium|Which sea creatures sang to lure sailors onto the rocks?|Sirens
        medium|What is the name of the great hall where Odin welcomes warriors who die in battle?|Valhalla
        medium|What is the Roman name of Heracles, the hero who performed twelve labours?|Hercules
        medium|Which Greek goddess of wisdom gave her name to the city of Athens?|Athena
        medium|What was the name of the ship on which Jason sailed to find the Golden Fleece?|Argo
        medium|Who is the Roman goddess of love?|Venus
        medium|What kind of one-eyed giant was Polyphemus?|Cyclops
        medium|Which king turned everything he touched into gold?|Midas
        medium|In the legends of King Arthur, which wizard advised the king?|Merlin
        medium|Who is the Greek god of the underworld?|Hades
        hard|What is the name of the three-headed dog that guards the underworld?|Cerberus
        hard|Which hero cut off the head of Medusa?|Perseus
        hard|Which Egyptian god of the dead had the head of a jackal?|Anubis
        hard|Which Greek messenger god wore winged sandals?|Hermes
        hard|What is the name of the great tree that links the nine worlds in Norse myth?|Yggdrasil
        hard|Which Titan was punished by having to hold up the sky?|Atlas
        hard|Which Titan stole fire from the gods and gave it to humans?|Prometheus
        hard|In Homer's "Odyssey", who is the faithful wife of Odysseus?|Penelope
        hard|Which Norse trickster god is the father of the wolf Fenrir?|Loki
        hard|Who answered the riddle of the Sphinx?|Oedipus
        hard|By which river of the underworld did the Greek gods swear their most solemn oaths?|Styx
        hard|Which Greek goddess of the hunt is the twin sister of Apollo?|Artemis
        hard|Which Athenian hero killed the Minotaur?|Theseus
        hard|Which princess gave Theseus a ball of thread to find his way out of the Labyrinth?|Ariadne
        hard|Which craftsman built the Labyrinth and made wings for himself and his son?|Daedalus
        hard|Which many-headed serpent grew two new heads for each one cut off?|Hydra
        hard|Which giant wolf of Norse myth is fated to swallow Odin at Ragnarök?|Fenrir
        hard|Which Egyptian sky god had the head of a falcon?|Horus
        hard|Who is the Greek goddess of victory?|Nike
        hard|Who is the Roman god of the sea?|Neptune
        """
}
