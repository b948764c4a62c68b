/**
 * Real English vocabulary for the search-quality corpus (quality-corpus.ts): common base words whose inflections follow
 * the simple rules of `inflections` in quality-corpus.ts (no irregular plurals or past tenses, no verb whose final
 * consonant doubles under stress on a later syllable), and the words code identifiers are made of. Data only.
 */

/** Countable nouns with regular plurals. */
export const NOUNS: readonly string[] = `
apple table river garden window door house road street bridge tower castle village city country island mountain valley
forest field farm barn fence gate wall roof floor room kitchen bottle glass cup plate bowl spoon fork basket bucket candle
lamp mirror picture letter paper book page chapter story poem song voice sound color shape circle square line point
corner edge surface layer pattern signal message question answer problem reason result method process system engine
machine motor wheel tire car truck train plane boat ship harbor station airport ticket journey passenger driver pilot
captain sailor farmer teacher student doctor nurse patient parent brother sister friend neighbor stranger king queen
prince princess soldier army battle weapon sword shield horse cow pig dog cat bird rabbit snake insect spider bee flower
tree plant seed root branch stone rock hill lake ocean beach wave cloud storm season month week hour minute moment
evening holiday birthday party dinner lunch meal cake cookie candy orange lemon grape cherry berry carrot onion bean
shirt dress coat hat shoe sock button pocket ring necklace watch clock key lock box bag tool hammer nail screw ladder
rope chain wire cable pipe tube pump valve tank battery computer keyboard screen monitor printer camera phone radio
video network server client browser folder file record report document element attribute property event function
object value string number array promise request response header cache selector layout grid animation border margin
position node worker service stream buffer socket policy permission example feature option account user member owner
customer market price cost budget payment bank coin dollar office company factory product package order invoice
contract lawyer judge court prison crime museum library school college university lesson exam grade course subject
language word sentence paragraph title name label sign map planet star moon comet galaxy rocket telescope lens light
shadow artist singer dancer player team game match score goal ball racket medal trophy prize gift toy puzzle doll kite
balloon blanket pillow bed chair desk cabinet drawer carpet curtain ceiling stair elevator garage tunnel canal pond
desert jungle cave path trail compass anchor sail mast lighthouse goat duck chicken turkey eagle owl parrot whale shark
dolphin crab lobster frog lizard turtle monkey tiger lion bear fox elephant giraffe zebra camel donkey flame fire ash
coal metal diamond crystal jewel pearl brick tile beam plank board paint brush pencil pen eraser ruler notebook
envelope stamp parcel tray jar pot pan kettle oven stove sink towel bath shower lawn hedge bush petal stem vine pumpkin
melon peach pear plum nut almond cloud helmet glove umbrella suitcase wallet purse engineer builder painter
writer reader visitor tourist guide hunter baker butcher cook waiter manager director president minister citizen
village pilot tractor wagon cart sled canoe raft submarine helicopter bicycle scooter motorcycle bus lantern torch
magnet spring bolt gear lever pulley spring switch plug socket circuit sensor robot satellite antenna
`.trim().split(/\s+/);

/** Verbs with regular past tenses and participles. */
export const VERBS: readonly string[] = `
bake move smile close change create share save use place measure compare prepare describe receive produce include
provide improve replace remove arrange combine declare explore imagine manage notice operate organize practice promise
raise reduce release rescue restore scrape serve slice solve store trade translate update value wave dance decide
escape hope invite joke like love name paste pause please race rate refuse retire skate taste trace type vote wipe
carry copy cry dry empty hurry marry study try worry apply deny reply supply multiply bury fry tidy play stay pray
delay destroy enjoy obey spray display employ annoy stop plan drop grab hug jog knit nod pat plug rob rub shop skip
slip step tap trip wrap beg chop clap drag drum grin hop hum jam mop pin scan ship snap spot tag trim zip visit open
listen happen enter offer wonder gather harvest travel borrow follow allow limit edit credit deposit market target
budget exhibit inherit interpret walk talk jump climb paint print plant pull push wash watch fix mix fetch search reach
touch match kick pick pack lock knock check cook look book need want start finish help call fill spell smell turn
learn burn return earn warn rain train explain remain contain obtain complain join point count hunt test rest list
twist lift shift drift sort report support import export record request respond attend extend depend defend pretend
land hand sound work park mark bark ask load float boil fail mail sail nail seal heal clean dream scream stream seem
bump pump dump camp stamp yell roll pour cover discover deliver remember consider order answer color filter render
alter water belong crash splash brush rush wish kiss miss pass press dress guess cross toss relax wax add end fold
mend blend clear appear disappear fear repair agree cache buffer signal paddle sketch stitch
`.trim().split(/\s+/);

/** Words between the nouns and verbs of generated prose. */
export const FUNCTION_WORDS: readonly string[] = `
the a of and to in with for on by from at into over under near after before about through during without
`.trim().split(/\s+/);

export const ADJECTIVES: readonly string[] = `
small large old new quick slow bright dark quiet loud warm cold soft hard clean fresh green blue red yellow heavy light
simple strange early late deep wide narrow sharp smooth rough
`.trim().split(/\s+/);

/** Verbs code names start with (never inflected: `get`, `set` and `read` have irregular forms). */
export const IDENTIFIER_VERBS: readonly string[] = `
get set add remove create parse read write find update delete load save open close fetch query insert append clear
reset format render build handle init is has to make run send
`.trim().split(/\s+/);

/** Nouns code names are made of. */
export const IDENTIFIER_NOUNS: readonly string[] = `
element node event listener attribute value child item key name id tag class style header request response buffer stream
file path url user session token cache config option state record table row column index list map array string number
date time error handler context client server socket channel message queue worker task timer range selection document
window frame canvas image font color border layout grid matrix vector point rect observer decoder encoder reader writer
`.trim().split(/\s+/);

/** Receivers of dotted names (`Array.prototype.map`, `Promise.all`). */
export const IDENTIFIER_ROOTS: readonly string[] = `
Array Object String Promise Math JSON Number Date Intl Reflect Map Set Symbol Element Document Node Window Request
Response Buffer Stream Event Headers Blob Crypto Atomics
`.trim().split(/\s+/);

/** Namespaces of `::` names. */
export const NAMESPACES: readonly string[] = ['std', 'boost', 'tokio', 'serde', 'absl', 'folly', 'rayon', 'glib'];

/** Short names of formats and tools, for letter-digit names (`svg2png`, `iperf3`). */
export const SHORT_NAMES: readonly string[] = `
svg png pdf json csv xml yaml html md jpg gif webp tiff toml wav ogg iperf rabin nmap curl gzip bzip perl ffmpeg sha
utf http ipv vue lua zstd brotli mpeg avif heic opus flac lame sox dig mtr
`.trim().split(/\s+/);

/** Real, well-known code names; each is the title of one page of the corpus and turns up in others' text. */
export const KNOWN_IDENTIFIERS: readonly string[] = `
getElementById getElementsByClassName querySelectorAll addEventListener removeEventListener Array.prototype.map
Array.prototype.filter Array.prototype.reduce Object.keys Promise.all JSON.parse String.prototype.split std::vector
std::unordered_map std::shared_ptr iperf3 svg2png rabin2 python3 http2 log4j sha256 md5sum base64 XMLHttpRequest
IntersectionObserver MutationObserver HTMLCanvasElement ReadableStream TextDecoder setTimeout requestAnimationFrame
localStorage innerHTML os.path.join sys.argv re.compile read_csv parse_args make_response
`.trim().split(/\s+/);
