/// The Odd One Out puzzle packs that ship with Partyline, written for this project as plain CSV text.
///
/// Each row is `difficulty,outsider,word1,word2,word3,link` with no header: the three words share the link and
/// the outsider does not. A field is wrapped in double quotes only when it contains a comma.
enum BuiltinOutsiderPacks {
    /// Every built-in pack in listing order: a stable lower-case id, a display name and its CSV rows.
    static let packs: [(id: String, name: String, csv: String)] = [
        (id: "animals", name: "Animals", csv: animals),
        (id: "food", name: "Food & Drink", csv: food),
        (id: "geography", name: "Geography", csv: geography),
        (id: "science", name: "Science & Nature", csv: science),
        (id: "sport", name: "Sport & Games", csv: sport),
        (id: "words", name: "Words & Language", csv: words),
    ]

    /// Puzzles about animals, their families, homes and habits.
    private static let animals = """
        easy,shark,cow,horse,sheep,farm animals
        easy,snake,dog,cat,rabbit,they have fur
        easy,goat,kitten,puppy,lamb,baby animals
        easy,frog,snail,tortoise,crab,they have shells
        easy,tiger,zebra,panda,penguin,black and white
        easy,snail,kangaroo,frog,rabbit,they hop
        easy,dolphin,shark,tuna,cod,fish
        easy,cat,parrot,robin,owl,birds
        easy,elephant,ant,bee,butterfly,insects
        easy,monkey,lion,tiger,leopard,big cats
        easy,horse,duck,swan,goose,water birds
        easy,giraffe,whale,octopus,jellyfish,they live in the sea
        easy,sheep,wolf,fox,lion,they hunt other animals
        easy,crocodile,hamster,mouse,guinea pig,small furry pets
        medium,zebra,leopard,cheetah,dalmatian,spotted coats
        medium,wolf,cow,giraffe,rabbit,they eat only plants
        medium,spider,ant,beetle,grasshopper,insects
        medium,hen,cub,foal,calf,baby animals
        medium,herd,hive,nest,burrow,animal homes
        medium,elephant,rhino,antelope,buffalo,they have horns
        medium,camel,polar bear,walrus,reindeer,they live where it is cold
        medium,roar,moo,oink,baa,farm animal sounds
        medium,swan,eagle,hawk,falcon,birds of prey
        medium,Siamese,poodle,beagle,Labrador,dog breeds
        medium,frog,lizard,crocodile,snake,reptiles
        medium,sloth,gorilla,chimpanzee,orangutan,apes
        medium,hedgehog,mouse,rat,squirrel,rodents
        medium,eagle,ostrich,emu,kiwi,birds that cannot fly
        medium,giraffe,zebra,donkey,pony,horse family
        medium,ladybird,bee,wasp,hornet,they sting
        medium,penguin,sparrow,eagle,pigeon,birds that can fly
        medium,panda,kangaroo,koala,emu,Australian animals
        medium,beetle,snail,slug,worm,they have no legs
        hard,bat,chicken,crocodile,turtle,they lay eggs
        hard,shark,whale,dolphin,seal,mammals
        hard,sloth,kangaroo,koala,wombat,marsupials
        hard,koala,panda,polar bear,grizzly,bears
        hard,goldfish,starfish,jellyfish,cuttlefish,not really fish
        hard,squirrel,owl,bat,hedgehog,they come out at night
        hard,den,pride,pack,flock,groups of animals
        hard,turtle,chameleon,octopus,cuttlefish,they can change colour
        hard,ewe,stallion,rooster,ram,male animals
        hard,lizard,frog,toad,newt,amphibians
        hard,whale,tadpole,goldfish,octopus,they breathe with gills
        hard,horse,cow,sheep,goat,they chew the cud
        hard,cheetah,lion,tiger,jaguar,big cats that can roar
        """

    /// Puzzles about things to eat and drink.
    private static let food = """
        easy,carrot,apple,banana,pear,fruits
        easy,grape,cabbage,potato,onion,vegetables
        easy,bread,cheese,yoghurt,butter,made from milk
        easy,salt,sugar,honey,jam,sweet things
        easy,soup,ice cream,cake,pudding,desserts
        easy,lemon,strawberry,cherry,raspberry,red fruits
        easy,toast,tea,coffee,cocoa,hot drinks
        easy,fork,breakfast,lunch,dinner,meals
        easy,cucumber,lemon,banana,sweetcorn,yellow foods
        easy,rice,beef,pork,lamb,meats
        easy,cookie,knife,fork,spoon,cutlery
        easy,tomato,peas,beans,broccoli,green vegetables
        easy,egg,cola,lemonade,water,drinks
        easy,peach,strawberry,blueberry,blackberry,berries
        medium,apple,orange,lemon,grapefruit,citrus fruits
        medium,pasta,cheddar,brie,mozzarella,cheeses
        medium,rice,spaghetti,penne,lasagne,kinds of pasta
        medium,sushi,pizza,pasta,risotto,Italian food
        medium,croissant,taco,burrito,nachos,Mexican food
        medium,raisin,walnut,almond,hazelnut,nuts
        medium,cinnamon,basil,parsley,thyme,herbs
        medium,doughnut,baguette,naan,pitta,kinds of bread
        medium,melon,apple,cherry,plum,they grow on trees
        medium,pumpkin,carrot,potato,turnip,they grow underground
        medium,milk,lemonade,cola,soda water,fizzy drinks
        medium,soup,cornflakes,porridge,muesli,breakfast cereals
        medium,beef,bacon,ham,pork chop,they come from pigs
        medium,basil,cinnamon,nutmeg,ginger,spices
        medium,cucumber,spinach,lettuce,kale,leafy greens
        hard,peanut,walnut,hazelnut,pecan,nuts that grow on trees
        hard,carrot,tomato,cucumber,pumpkin,fruits to a botanist
        hard,cheddar,brie,camembert,roquefort,French cheeses
        hard,paella,sushi,ramen,tempura,Japanese food
        hard,rice,lentils,chickpeas,kidney beans,pulses
        hard,banana,potato,tomato,maize,they first grew in the Americas
        hard,tea,coffee,chocolate,tofu,made from beans
        hard,prune,raisin,sultana,currant,dried grapes
        hard,ketchup,mayonnaise,custard,hollandaise,made with eggs
        hard,sponge,puff,filo,shortcrust,kinds of pastry
        hard,apple,peach,plum,apricot,stone fruits
        hard,prosciutto,chorizo,salami,pepperoni,kinds of sausage
        hard,polenta,chips,mash,gnocchi,made from potatoes
        """

    /// Puzzles about places, maps and the shape of the world.
    private static let geography = """
        easy,Paris,France,Spain,Italy,countries
        easy,Brazil,Africa,Asia,Europe,continents
        easy,desert,river,lake,sea,full of water
        easy,up,north,south,east,compass directions
        easy,valley,mountain,hill,peak,high places
        easy,Alps,Nile,Amazon,Thames,rivers
        easy,sand,rain,snow,hail,they fall from the sky
        easy,Nile,Atlantic,Pacific,Arctic,oceans
        easy,calendar,map,globe,atlas,they show the world
        easy,Japan,Germany,Norway,Portugal,countries in Europe
        easy,beach,forest,jungle,woods,places full of trees
        easy,Egypt,China,India,Japan,countries in Asia
        easy,field,village,town,city,places where people live
        easy,Kenya,London,Paris,Rome,cities
        medium,Toronto,Texas,Florida,California,US states
        medium,Lisbon,Madrid,Barcelona,Seville,cities in Spain
        medium,Poland,Norway,Sweden,Denmark,Scandinavian countries
        medium,Sahara,Alps,Andes,Himalayas,mountain ranges
        medium,Amazon,Sahara,Gobi,Kalahari,deserts
        medium,Chile,Iceland,Madagascar,Jamaica,island countries
        medium,Mexico,Brazil,Peru,Argentina,South American countries
        medium,India,Kenya,Egypt,Nigeria,African countries
        medium,Everest,Etna,Vesuvius,Krakatoa,volcanoes
        medium,Tokyo,euro,dollar,yen,currencies
        medium,Big Ben,Eiffel Tower,Louvre,Notre-Dame,landmarks in Paris
        medium,Thames,Mediterranean,Baltic,Caribbean,seas
        medium,geyser,glacier,iceberg,ice sheet,made of ice
        medium,summit,source,mouth,delta,parts of a river
        medium,Ireland,England,Scotland,Wales,on the island of Great Britain
        hard,Sydney,Ottawa,Canberra,Brasilia,capital cities
        hard,Italy,Switzerland,Austria,Hungary,landlocked countries
        hard,Danube,Mississippi,Missouri,Colorado,rivers in the USA
        hard,Spain,Brazil,Portugal,Mozambique,they speak Portuguese
        hard,Canada,Australia,Argentina,South Africa,south of the equator
        hard,Seine,Rhine,Elbe,Danube,rivers in Germany
        hard,Peru,Chad,Jordan,Georgia,also first names
        hard,Belgium,Monaco,San Marino,Liechtenstein,tiny countries
        hard,France,Japan,Australia,India,they drive on the left
        hard,Victoria,Superior,Michigan,Huron,Great Lakes
        hard,Madrid,Amsterdam,Venice,Bruges,cities with canals
        hard,Morocco,Kenya,Ecuador,Indonesia,on the equator
        """

    /// Puzzles about space, the body, materials, shapes and numbers.
    private static let science = """
        easy,Moon,Mars,Venus,Jupiter,planets
        easy,wood,iron,gold,copper,metals
        easy,elbow,heart,lungs,liver,organs
        easy,sand,ice,water,steam,forms of water
        easy,thermometer,telescope,microscope,magnifying glass,they help you see
        easy,sleep,sight,hearing,smell,senses
        easy,pink,red,yellow,green,rainbow colours
        easy,Monday,spring,summer,autumn,seasons
        easy,cloud,star,planet,comet,things in space
        easy,circle,square,triangle,rectangle,shapes with corners
        easy,seven,two,four,six,even numbers
        easy,stone,cork,leaf,rubber duck,they float
        easy,rock,tree,dog,mushroom,living things
        easy,bicycle,lamp,fridge,television,they need electricity
        medium,iron,oxygen,helium,hydrogen,gases
        medium,heart,skull,rib,femur,bones
        medium,Earth,Jupiter,Saturn,Neptune,giant planets
        medium,Mozart,Newton,Einstein,Darwin,scientists
        medium,inch,metre,litre,gram,metric units
        medium,triangle,cube,sphere,pyramid,3D shapes
        medium,nerve,artery,vein,capillary,they carry blood
        medium,glass,granite,marble,chalk,rocks
        medium,compass,clock,sundial,hourglass,they tell the time
        medium,battery,lever,pulley,ramp,simple machines
        medium,tadpole,egg,caterpillar,chrysalis,stages of a butterfly
        medium,rose,oak,pine,birch,trees
        medium,wing,petal,stem,root,parts of a plant
        medium,rubber,copper,silver,aluminium,they conduct electricity
        medium,nylon,wool,cotton,silk,natural fibres
        hard,copper,iron,nickel,cobalt,magnetic metals
        hard,ruby,diamond,coal,graphite,made of carbon
        hard,erosion,evaporation,condensation,precipitation,the water cycle
        hard,molecule,proton,neutron,electron,parts of an atom
        hard,fifteen,three,seven,eleven,prime numbers
        hard,metre,volt,watt,amp,units of electricity
        hard,Vega,Titan,Europa,Ganymede,moons
        hard,oxygen,neon,argon,helium,noble gases
        hard,cochlea,iris,pupil,retina,parts of the eye
        hard,Richter,Celsius,Fahrenheit,Kelvin,temperature scales
        hard,humerus,femur,tibia,fibula,leg bones
        hard,Mars,Pluto,Ceres,Eris,dwarf planets
        hard,sound,light,radio waves,X-rays,electromagnetic waves
        """

    /// Puzzles about sports, games, cards and toys.
    private static let sport = """
        easy,judo,football,tennis,basketball,ball games
        easy,swimming,skiing,skating,snowboarding,winter sports
        easy,stars,hearts,clubs,spades,card suits
        easy,iron,gold,silver,bronze,Olympic medals
        easy,chess,tag,hopscotch,hide and seek,playground games
        easy,archery,rowing,surfing,diving,water sports
        easy,sledge,skateboard,bicycle,scooter,they have wheels
        easy,whistle,trophy,medal,cup,prizes
        easy,gloves,skates,flippers,football boots,worn on your feet
        easy,jigsaw,frisbee,ball,boomerang,things you throw
        easy,pitch,pool,sea,lake,places to swim
        easy,bathtub,slide,swing,seesaw,in a playground
        medium,referee,goalkeeper,striker,defender,players in a football team
        medium,golf,tennis,badminton,squash,racket sports
        medium,Twister,Snap,Go Fish,Solitaire,card games
        medium,hockey,cricket,baseball,rounders,played with a bat
        medium,tag,Monopoly,Scrabble,chess,board games
        medium,yoga,judo,karate,taekwondo,martial arts
        medium,jack,bishop,knight,pawn,chess pieces
        medium,net,puck,shuttlecock,golf ball,things you hit
        medium,darts,javelin,discus,shot put,thrown in athletics
        medium,racket,court,pitch,rink,places to play sport
        medium,rugby,ice hockey,curling,figure skating,played on ice
        medium,chess,Ludo,Yahtzee,backgammon,games with dice
        medium,surfboard,canoe,kayak,yacht,boats
        medium,high jump,sprint,relay,hurdles,running races
        medium,forehand,butterfly,breaststroke,backstroke,swimming strokes
        medium,sudoku,Scrabble,Boggle,crossword,word games
        medium,rowing,sailing,windsurfing,kitesurfing,powered by wind
        hard,try,ace,deuce,love,tennis words
        hard,basketball,football,cricket,field hockey,eleven players a side
        hard,falcon,birdie,eagle,albatross,golf scores
        hard,checkmate,strike,spare,gutter,tenpin bowling words
        hard,fencing,polo,show jumping,dressage,on horseback
        hard,luge,slalom,downhill,moguls,skiing events
        hard,wicket,touchdown,quarterback,end zone,American football
        hard,Tour de France,Wimbledon,US Open,Australian Open,tennis tournaments
        hard,croquet,snooker,pool,billiards,played with a cue
        hard,par,love,nil,duck,ways to say zero in sport
        hard,puck,tee,putter,caddie,golf words
        hard,hurdles,beam,vault,rings,gymnastics apparatus
        """

    /// Puzzles about words themselves: meanings, sounds, spellings and other languages.
    private static let words = """
        easy,dog,cat,hat,mat,they rhyme
        easy,tiny,huge,giant,enormous,words for big
        easy,sad,glad,cheerful,joyful,words for happy
        easy,b,a,e,o,vowels
        easy,star,moon,spoon,June,they rhyme
        easy,slow,quick,rapid,speedy,words for fast
        easy,tree,one,two,three,numbers
        easy,goodbye,hello,hi,hey,ways to say hello
        easy,freezing,boiling,scorching,roasting,words for hot
        easy,elephant,sunflower,football,rainbow,two words joined together
        easy,March,Monday,Friday,Sunday,days of the week
        easy,ruler,pen,pencil,crayon,you write with them
        easy,Paris,French,German,Spanish,languages
        easy,uncle,aunt,niece,sister,female relatives
        easy,table,buzz,bang,splash,they sound like their noise
        medium,merci,bonjour,hola,ciao,hello in other languages
        medium,note,level,kayak,noon,the same backwards
        medium,sprint,stroll,wander,amble,slow ways to walk
        medium,vowel,noun,verb,adjective,kinds of word
        medium,alphabet,comma,full stop,question mark,punctuation marks
        medium,hush,racket,din,uproar,words for noise
        medium,silly,clever,bright,brainy,words for smart
        medium,stool,sofa,couch,settee,words for a sofa
        medium,timid,bold,daring,fearless,words for brave
        medium,kite,knee,knot,knife,silent k
        medium,double,single,solo,lone,words for one
        medium,shout,whisper,murmur,mumble,speaking quietly
        medium,sob,giggle,chuckle,snigger,kinds of laugh
        medium,listen,glance,stare,peek,ways to look
        medium,mayor,king,queen,prince,royal titles
        hard,cat,sheep,fish,deer,same word for one and many
        hard,novel,haiku,limerick,sonnet,kinds of poem
        hard,chair,fridge,phone,bike,shortened words
        hard,water,wrist,wrong,write,silent w
        hard,ant,bee,sea,pea,they sound like letters
        hard,dog,child,mouse,foot,plurals without an s
        hard,several,dozen,score,pair,exact numbers
        hard,echo,alpha,beta,gamma,Greek letters
        hard,bingo,bicycle,binoculars,biplane,bi- means two
        hard,trick,tricycle,triangle,tripod,tri- means three
        hard,house,hour,honest,honour,silent h
        hard,sushi,piano,opera,volcano,words from Italian
        """
}
