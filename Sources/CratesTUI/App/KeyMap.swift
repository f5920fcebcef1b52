/// A named thing the user can do.
public enum Action: String, Sendable, CaseIterable {
    case moveDown, moveUp, pageDown, pageUp, top, bottom, nextSection, previousSection
    case filter, add, delete, undo, open, openInBrowser, retry, authenticate
    case help, back, quit, redraw
    /// Issue 14: search Discogs without a barcode, enter a record by hand, edit a record,
    /// walk the records that need a person, leave one as it is.
    case search, enterByHand, edit, needsPerson, leave
    /// In a form: the next or previous field, send it, empty the field.
    case nextField, previousField, submit, clearField
    /// The places as a tree, with counts.
    case locations
    /// Issue 16: sync with the Discogs collection; in the details view, grade and rate.
    case sync, mediaGrade, sleeveGrade, rate
    /// The next order of the rows within the sections (`ListOrder`); that order the other way
    /// round (the latest added first, Z–A); one list without genre sections, or sections again.
    case sortOrder, reverseOrder, flatList
    /// The statistics screen: the collection's bar charts; Enter on a bar narrows the list.
    case statistics
    /// The copies in conflict with the Discogs collection; in that view, keep crates'
    /// values or take Discogs', for one copy or for every one.
    case conflicts, keepCrates, takeDiscogs, keepCratesForAll, takeDiscogsForAll
    /// Shows or hides the covers (the details view's, the picker's).
    case covers
    /// Check mode: scans say whether a record is owned, wanted or new, and add nothing; in
    /// it, a checked release bought (added), wanted, taken off the wantlist, its price asked,
    /// a code Discogs could not be asked about asked again.
    case checkMode, bought, want, unwant, prices, lookUpAgain
    /// The wantlist view; in it, the rating up and down.
    case wantlist, rateUp, rateDown
    /// The copies out on loan, by borrower.
    case loans
    /// Tags: the selected record tagged or untagged, every record the filter shows tagged,
    /// every tag cleared; copy labels scanned tag their copies (on or off); the tagged
    /// records (else the selected one) moved to a place chosen in a picker, or exported.
    case tag, tagShown, untagAll, tagByScan, moveToPlace, export
    /// The scans refused this session.
    case refusals
}

/// Where a binding applies.
public enum KeyContext: String, Sendable, CaseIterable {
    case list = "Collection"
    case details = "Details"
    case picker = "Choosing a pressing"
    case form = "Search, entry by hand, edit"
    case needs = "Needs a person (N)"
    case locations = "Places (L)"
    case grades = "Grading (M, V, *)"
    case statistics = "Statistics (#)"
    case signIn = "Signing in to Discogs (A)"
    case conflicts = "Conflicts with Discogs (C)"
    case check = "Check mode (f): scans add nothing"
    case wantlist = "Wantlist (w)"
    case loans = "Loans (B)"
    case refusals = "Refused scans (!)"
    case help = "Help"

    /// What the help says about the context beyond its keys.
    public var note: String? {
        switch self {
        case .locations: "Opened by p in the list: Enter moves the tagged records (or the selected one) into the place chosen."
        case .picker: "Type to narrow the pressings by catalogue number, country, year or label (\"46001\", \"uk 1973\")."
        case .form: "Type into the field; an emptied field of an edit goes back to Discogs' value."
        case .needs: "Walks every ambiguous, not-found and failed record, oldest first."
        case .signIn: "Paste a personal access token (https://www.discogs.com/settings/developers): it is checked with Discogs before it is saved."
        case .grades: "In the rating picker a digit sets that many stars: 0 to 5 (0: not rated)."
        case .conflicts: "A value changed differently in crates and on Discogs since the last sync: choose which stays, for each copy."
        case .check: "Each scan or typed code opens its verdict (OWNED, OTHER PRESSING, WANTED, NEW) and stays in the fair's list, newest first; nothing is added unless you say so."
        case .wantlist: "Scan or type a code here to want it; synced with your Discogs wantlist by S."
        case .loans: "The copies lent and not back (e in a copy's details lends it or marks it returned); kept here only."
        case .refusals: "Every code refused this session (a misread check digit, a shop's price label), newest first."
        default: nil
        }
    }
}

/// One row of the key map: the keys, the action they run, and the help text for it.
public struct KeyBinding: Sendable {
    public var keys: [Key]
    public var action: Action
    public var help: String
    public var contexts: [KeyContext]
}

/// The single table that binds keys; the help screen is generated from it, so the two can
/// never disagree. Digits are not here: in the list, a digit starts barcode entry (wedge
/// scanners type digits then Enter).
public enum KeyMap {
    public static let bindings: [KeyBinding] = [
        KeyBinding(keys: [.down, .character("j")], action: .moveDown, help: "next record", contexts: [.list, .details, .help]),
        KeyBinding(keys: [.up, .character("k")], action: .moveUp, help: "previous record", contexts: [.list, .details, .help]),
        KeyBinding(keys: [.pageDown, .control("f"), .character(" ")], action: .pageDown, help: "page down", contexts: [.list, .details, .help]),
        KeyBinding(keys: [.pageUp, .control("b")], action: .pageUp, help: "page up", contexts: [.list, .details, .help]),
        KeyBinding(keys: [.home, .character("g")], action: .top, help: "first record", contexts: [.list, .details, .help]),
        KeyBinding(keys: [.end, .character("G")], action: .bottom, help: "last record", contexts: [.list, .details, .help]),
        KeyBinding(keys: [.down], action: .moveDown, help: "next pressing", contexts: [.picker]),
        KeyBinding(keys: [.up], action: .moveUp, help: "previous pressing", contexts: [.picker]),
        KeyBinding(keys: [.pageDown], action: .pageDown, help: "page down", contexts: [.picker]),
        KeyBinding(keys: [.pageUp], action: .pageUp, help: "page up", contexts: [.picker]),
        KeyBinding(keys: [.home], action: .top, help: "first pressing", contexts: [.picker]),
        KeyBinding(keys: [.end], action: .bottom, help: "last pressing", contexts: [.picker]),
        KeyBinding(keys: [.character("]"), .tab, .character("J")], action: .nextSection, help: "next section", contexts: [.list]),
        KeyBinding(keys: [.character("["), .backTab, .character("K")], action: .previousSection, help: "previous section", contexts: [.list]),
        KeyBinding(keys: [.character("/")], action: .filter, help: "filter: artist, title, label, catno, barcode", contexts: [.list]),
        KeyBinding(keys: [.character("a")], action: .add, help: "add: barcode, Discogs release id or URL (or just scan)", contexts: [.list]),
        KeyBinding(keys: [.character("s")], action: .search, help: "search Discogs without a barcode (catno, artist, title…)", contexts: [.list, .details, .needs]),
        KeyBinding(keys: [.character("m")], action: .enterByHand, help: "enter a record by hand (Discogs does not have it)", contexts: [.list, .details, .needs]),
        KeyBinding(keys: [.character("e")], action: .edit, help: "edit the fields and note (yours win over Discogs')", contexts: [.list, .details, .needs]),
        KeyBinding(keys: [.character("O")], action: .sortOrder, help: "sort: artist, title, year, added, label, place", contexts: [.list]),
        KeyBinding(keys: [.character("N")], action: .needsPerson, help: "walk the records that need a person", contexts: [.list]),
        // The views over the collection, early in the help: its first screen shows them.
        KeyBinding(keys: [.character("L")], action: .locations, help: "places: the tree with counts (Enter shows one)", contexts: [.list]),
        KeyBinding(keys: [.character("#")], action: .statistics, help: "statistics: bar charts (Enter on a bar lists it)", contexts: [.list]),
        KeyBinding(keys: [.character("C")], action: .conflicts, help: "conflicts with Discogs: choose crates' or Discogs' values", contexts: [.list, .details]),
        KeyBinding(keys: [.character("f")], action: .checkMode, help: "check mode: scans say owned or wanted; add nothing", contexts: [.list, .check]),
        KeyBinding(keys: [.character("w")], action: .wantlist, help: "the wantlist (scan to want; synced with Discogs')", contexts: [.list]),
        KeyBinding(keys: [.character("B")], action: .loans, help: "loans: who has your records, since when", contexts: [.list]),
        KeyBinding(keys: [.character("!")], action: .refusals, help: "the scans refused this session, newest first", contexts: [.list]),
        KeyBinding(keys: [.character("R")], action: .reverseOrder, help: "reverse the order: Z–A, the latest added first (on/off)", contexts: [.list]),
        KeyBinding(keys: [.character("F")], action: .flatList, help: "flat: one list in the order, no genre sections (on/off)", contexts: [.list]),
        KeyBinding(keys: [.character("x"), .character("j"), .down], action: .leave, help: "leave it as it is: the next one", contexts: [.needs]),
        KeyBinding(keys: [.tab, .down], action: .nextField, help: "next field", contexts: [.form]),
        KeyBinding(keys: [.backTab, .up], action: .previousField, help: "previous field", contexts: [.form]),
        KeyBinding(keys: [.enter], action: .submit, help: "search, save or add", contexts: [.form]),
        KeyBinding(keys: [.control("u")], action: .clearField, help: "empty the field", contexts: [.form]),
        // Tags, as mutt's: the actions below take every tagged record when there are any.
        KeyBinding(keys: [.character("t")], action: .tag, help: "tag or untag it; d r p M V * E then take all tagged", contexts: [.list]),
        KeyBinding(keys: [.character("T")], action: .tagShown, help: "tag every record the list shows (filter, place)", contexts: [.list]),
        KeyBinding(keys: [.character("U")], action: .untagAll, help: "untag every record", contexts: [.list]),
        KeyBinding(keys: [.character("b")], action: .tagByScan, help: "tag by scan: a copy label scanned tags its copy (on/off)", contexts: [.list]),
        KeyBinding(keys: [.character("p")], action: .moveToPlace, help: "move the tagged records (or this one) to a place", contexts: [.list]),
        KeyBinding(keys: [.character("M")], action: .mediaGrade, help: "media condition of the tagged records (or this one)", contexts: [.list]),
        KeyBinding(keys: [.character("V")], action: .sleeveGrade, help: "sleeve condition of the tagged records (or this one)", contexts: [.list]),
        KeyBinding(keys: [.character("*")], action: .rate, help: "rating of the tagged records (or this one)", contexts: [.list]),
        KeyBinding(keys: [.character("E")], action: .export, help: "export the tagged records (or this one) to a CSV file", contexts: [.list]),
        KeyBinding(keys: [.character("d"), .delete], action: .delete, help: "delete the record, or every tagged one (asks first)", contexts: [.list, .details]),
        KeyBinding(keys: [.character("u")], action: .undo, help: "undo: the session's deletes, moves and edits, last first", contexts: [.list]),
        KeyBinding(keys: [.enter, .right, .character("l")], action: .open, help: "details; choose a pressing when ambiguous", contexts: [.list, .details]),
        KeyBinding(keys: [.enter], action: .open, help: "choose this pressing", contexts: [.picker]),
        KeyBinding(keys: [.enter], action: .open, help: "choose a pressing (or search, when there is none)", contexts: [.needs]),
        KeyBinding(keys: [.character("o")], action: .openInBrowser, help: "open the Discogs page", contexts: [.list, .details]),
        KeyBinding(keys: [.control("o")], action: .openInBrowser, help: "open the pressing's Discogs page", contexts: [.picker]),
        KeyBinding(keys: [.character("r")], action: .retry, help: "look the record (or every tagged one) up again", contexts: [.list, .details, .needs]),
        KeyBinding(keys: [.character("A")], action: .authenticate, help: "sign in to Discogs: a token, or OAuth; sign out", contexts: [.list]),
        // Grading and the Discogs collection.
        KeyBinding(keys: [.character("S")], action: .sync, help: "sync with your Discogs collection (pull and push)", contexts: [.list]),
        KeyBinding(keys: [.character("M")], action: .mediaGrade, help: "media condition (a picker of Discogs' grades)", contexts: [.details]),
        KeyBinding(keys: [.character("V")], action: .sleeveGrade, help: "sleeve condition (a picker of Discogs' grades)", contexts: [.details]),
        KeyBinding(keys: [.character("*")], action: .rate, help: "rating, 0 to 5 stars (a picker)", contexts: [.details]),
        KeyBinding(keys: [.character("I")], action: .covers, help: "covers: show or hide them (--no-covers, config covers)", contexts: [.list, .details]),
        KeyBinding(keys: [.character("?"), .function(1)], action: .help, help: "this help", contexts: [.list, .details, .needs]),
        KeyBinding(keys: [.function(1)], action: .help, help: "this help", contexts: [.picker]),
        KeyBinding(keys: [.escape, .left, .character("h")], action: .back, help: "back; clear the filter, the bar, then the place", contexts: [.list, .details, .help]),
        KeyBinding(keys: [.escape], action: .back, help: "clear what was typed; back", contexts: [.picker]),
        KeyBinding(keys: [.escape, .control("c"), .control("g")], action: .back, help: "cancel", contexts: [.form]),
        KeyBinding(keys: [.escape, .character("h")], action: .back, help: "back to the collection", contexts: [.needs]),
        KeyBinding(keys: [.character("q")], action: .quit, help: "quit (back, in a view)", contexts: [.list, .details, .needs, .help]),
        KeyBinding(keys: [.control("l")], action: .redraw, help: "redraw the screen", contexts: [.list, .details, .picker, .needs, .help]),
        // Places: scanning a place's label makes it current; `L` shows them all.
        KeyBinding(keys: [.down, .character("j")], action: .moveDown, help: "next place", contexts: [.locations]),
        KeyBinding(keys: [.up, .character("k")], action: .moveUp, help: "previous place", contexts: [.locations]),
        KeyBinding(keys: [.pageDown, .control("f"), .character(" ")], action: .pageDown, help: "page down", contexts: [.locations]),
        KeyBinding(keys: [.pageUp, .control("b")], action: .pageUp, help: "page up", contexts: [.locations]),
        KeyBinding(keys: [.home, .character("g")], action: .top, help: "first place", contexts: [.locations]),
        KeyBinding(keys: [.end, .character("G")], action: .bottom, help: "last place", contexts: [.locations]),
        KeyBinding(keys: [.enter, .right, .character("l")], action: .open, help: "show this place and what is in it; scans go in it", contexts: [.locations]),
        KeyBinding(keys: [.escape, .left, .character("h"), .character("q")], action: .back, help: "back to the list", contexts: [.locations]),
        KeyBinding(keys: [.character("?"), .function(1)], action: .help, help: "this help", contexts: [.locations]),
        KeyBinding(keys: [.control("l")], action: .redraw, help: "redraw the screen", contexts: [.locations]),
        KeyBinding(keys: [.down, .character("j")], action: .moveDown, help: "next grade", contexts: [.grades]),
        KeyBinding(keys: [.up, .character("k")], action: .moveUp, help: "previous grade", contexts: [.grades]),
        KeyBinding(keys: [.home, .pageUp, .character("g")], action: .top, help: "the first: not graded, not rated", contexts: [.grades]),
        KeyBinding(keys: [.end, .pageDown, .character("G")], action: .bottom, help: "the last", contexts: [.grades]),
        KeyBinding(keys: [.enter, .right, .character("l")], action: .open, help: "set it", contexts: [.grades]),
        KeyBinding(keys: [.escape, .left, .character("h"), .character("q")], action: .back, help: "leave it as it was", contexts: [.grades]),
        KeyBinding(keys: [.control("l")], action: .redraw, help: "redraw the screen", contexts: [.grades]),
        // The statistics screen: the charts of `crates stats`, a bar at a time.
        KeyBinding(keys: [.down, .character("j")], action: .moveDown, help: "next bar", contexts: [.statistics]),
        KeyBinding(keys: [.up, .character("k")], action: .moveUp, help: "previous bar", contexts: [.statistics]),
        KeyBinding(keys: [.pageDown, .control("f"), .character(" ")], action: .pageDown, help: "page down", contexts: [.statistics]),
        KeyBinding(keys: [.pageUp, .control("b")], action: .pageUp, help: "page up", contexts: [.statistics]),
        KeyBinding(keys: [.home, .character("g")], action: .top, help: "first bar", contexts: [.statistics]),
        KeyBinding(keys: [.end, .character("G")], action: .bottom, help: "last bar", contexts: [.statistics]),
        KeyBinding(keys: [.character("]"), .tab, .character("J")], action: .nextSection, help: "next chart", contexts: [.statistics]),
        KeyBinding(keys: [.character("["), .backTab, .character("K")], action: .previousSection, help: "previous chart", contexts: [.statistics]),
        KeyBinding(keys: [.enter, .right, .character("l")], action: .open, help: "show the list of this bar's records (Esc there: back to the chart)", contexts: [.statistics]),
        KeyBinding(keys: [.escape, .left, .character("h"), .character("q")], action: .back, help: "back to the list", contexts: [.statistics]),
        KeyBinding(keys: [.character("?"), .function(1)], action: .help, help: "this help", contexts: [.statistics]),
        KeyBinding(keys: [.control("l")], action: .redraw, help: "redraw the screen", contexts: [.statistics]),
        // The sign-in form: its text field takes every printable key, so its commands are not letters.
        KeyBinding(keys: [.enter], action: .submit, help: "check with Discogs, then save", contexts: [.signIn]),
        KeyBinding(keys: [.tab, .backTab], action: .nextField, help: "a token, or OAuth in a browser (with an application's key)", contexts: [.signIn]),
        KeyBinding(keys: [.control("u")], action: .clearField, help: "empty the field", contexts: [.signIn]),
        KeyBinding(keys: [.control("x")], action: .delete, help: "sign out: forget the saved credentials", contexts: [.signIn]),
        KeyBinding(keys: [.escape, .control("c"), .control("g")], action: .back, help: "cancel", contexts: [.signIn]),
        // Conflicts with the Discogs collection, as the last sync found them.
        KeyBinding(keys: [.down, .character("j")], action: .moveDown, help: "next copy", contexts: [.conflicts]),
        KeyBinding(keys: [.up, .character("k")], action: .moveUp, help: "previous copy", contexts: [.conflicts]),
        KeyBinding(keys: [.pageDown, .control("f"), .character(" ")], action: .pageDown, help: "page down", contexts: [.conflicts]),
        KeyBinding(keys: [.pageUp, .control("b")], action: .pageUp, help: "page up", contexts: [.conflicts]),
        KeyBinding(keys: [.home, .character("g")], action: .top, help: "first copy", contexts: [.conflicts]),
        KeyBinding(keys: [.end, .character("G")], action: .bottom, help: "last copy", contexts: [.conflicts]),
        KeyBinding(keys: [.character("c")], action: .keepCrates, help: "keep crates' values of this copy (sent to Discogs)", contexts: [.conflicts]),
        KeyBinding(keys: [.character("d")], action: .takeDiscogs, help: "take Discogs' values of this copy", contexts: [.conflicts]),
        KeyBinding(keys: [.character("C")], action: .keepCratesForAll, help: "keep crates' values of every copy (asks first)", contexts: [.conflicts]),
        KeyBinding(keys: [.character("D")], action: .takeDiscogsForAll, help: "take Discogs' values of every copy (asks first)", contexts: [.conflicts]),
        KeyBinding(keys: [.enter, .right, .character("l")], action: .open, help: "the copy's details", contexts: [.conflicts]),
        KeyBinding(keys: [.escape, .left, .character("h"), .character("q")], action: .back, help: "back to the list", contexts: [.conflicts]),
        KeyBinding(keys: [.character("?"), .function(1)], action: .help, help: "this help", contexts: [.conflicts]),
        KeyBinding(keys: [.control("l")], action: .redraw, help: "redraw the screen", contexts: [.conflicts]),
        // Check mode: the fair's list and a code's verdict.
        KeyBinding(keys: [.down, .character("j")], action: .moveDown, help: "next code, or next pressing of a code", contexts: [.check]),
        KeyBinding(keys: [.up, .character("k")], action: .moveUp, help: "previous code, or previous pressing", contexts: [.check]),
        KeyBinding(keys: [.enter, .right, .character("l")], action: .open, help: "the code's verdict", contexts: [.check]),
        KeyBinding(keys: [.character("b")], action: .bought, help: "bought it: add this pressing to the collection", contexts: [.check]),
        KeyBinding(keys: [.character("w")], action: .want, help: "add this pressing to the wantlist", contexts: [.check]),
        KeyBinding(keys: [.character("x")], action: .unwant, help: "take it off the wantlist", contexts: [.check]),
        KeyBinding(keys: [.character("p")], action: .prices, help: "ask Discogs for its price now", contexts: [.check]),
        KeyBinding(keys: [.character("r")], action: .lookUpAgain, help: "look an unknown code up again (Discogs reachable)", contexts: [.check]),
        KeyBinding(keys: [.character("/")], action: .filter, help: "narrow the pressings (catno, country, year)", contexts: [.check]),
        KeyBinding(keys: [.escape, .left, .character("h")], action: .back, help: "back to the fair's list", contexts: [.check]),
        KeyBinding(keys: [.character("q")], action: .quit, help: "quit (back to the fair's list, from a verdict)", contexts: [.check]),
        KeyBinding(keys: [.character("?"), .function(1)], action: .help, help: "this help", contexts: [.check]),
        KeyBinding(keys: [.control("l")], action: .redraw, help: "redraw the screen", contexts: [.check]),
        // The wantlist.
        KeyBinding(keys: [.down, .character("j")], action: .moveDown, help: "next release", contexts: [.wantlist]),
        KeyBinding(keys: [.up, .character("k")], action: .moveUp, help: "previous release", contexts: [.wantlist]),
        KeyBinding(keys: [.pageDown, .control("f"), .character(" ")], action: .pageDown, help: "page down", contexts: [.wantlist]),
        KeyBinding(keys: [.pageUp, .control("b")], action: .pageUp, help: "page up", contexts: [.wantlist]),
        KeyBinding(keys: [.character("t")], action: .tag, help: "tag or untag it; x + - then take every tagged one", contexts: [.wantlist]),
        KeyBinding(keys: [.character("T")], action: .tagShown, help: "tag every release of the wantlist", contexts: [.wantlist]),
        KeyBinding(keys: [.character("U")], action: .untagAll, help: "untag every release", contexts: [.wantlist]),
        KeyBinding(keys: [.character("x"), .character("d"), .delete], action: .unwant, help: "take it (or the tagged: asks first) off the wantlist", contexts: [.wantlist]),
        KeyBinding(keys: [.character("+")], action: .rateUp, help: "want it (or the tagged) more (a star more)", contexts: [.wantlist]),
        KeyBinding(keys: [.character("-")], action: .rateDown, help: "want it (or the tagged) less (a star less)", contexts: [.wantlist]),
        KeyBinding(keys: [.character("p")], action: .prices, help: "ask Discogs for every wanted release's price (background)", contexts: [.wantlist]),
        KeyBinding(keys: [.character("O")], action: .sortOrder, help: "sort: artist, added, rating, price", contexts: [.wantlist]),
        KeyBinding(keys: [.character("R")], action: .reverseOrder, help: "reverse the order (on/off)", contexts: [.wantlist]),
        KeyBinding(keys: [.escape, .left, .character("h"), .character("q")], action: .back, help: "back to the list", contexts: [.wantlist]),
        KeyBinding(keys: [.character("?"), .function(1)], action: .help, help: "this help", contexts: [.wantlist]),
        KeyBinding(keys: [.control("l")], action: .redraw, help: "redraw the screen", contexts: [.wantlist]),
        // The loans.
        KeyBinding(keys: [.down, .character("j")], action: .moveDown, help: "next copy", contexts: [.loans]),
        KeyBinding(keys: [.up, .character("k")], action: .moveUp, help: "previous copy", contexts: [.loans]),
        KeyBinding(keys: [.pageDown, .control("f"), .character(" ")], action: .pageDown, help: "page down", contexts: [.loans]),
        KeyBinding(keys: [.pageUp, .control("b")], action: .pageUp, help: "page up", contexts: [.loans]),
        KeyBinding(keys: [.enter, .right, .character("l")], action: .open, help: "the copy's details (e there: returned, lent)", contexts: [.loans]),
        KeyBinding(keys: [.escape, .left, .character("h"), .character("q")], action: .back, help: "back to the list", contexts: [.loans]),
        KeyBinding(keys: [.character("?"), .function(1)], action: .help, help: "this help", contexts: [.loans]),
        KeyBinding(keys: [.control("l")], action: .redraw, help: "redraw the screen", contexts: [.loans]),
        // The scans refused this session.
        KeyBinding(keys: [.down, .character("j")], action: .moveDown, help: "scroll down", contexts: [.refusals]),
        KeyBinding(keys: [.up, .character("k")], action: .moveUp, help: "scroll up", contexts: [.refusals]),
        KeyBinding(keys: [.pageDown, .control("f"), .character(" ")], action: .pageDown, help: "page down", contexts: [.refusals]),
        KeyBinding(keys: [.pageUp, .control("b")], action: .pageUp, help: "page up", contexts: [.refusals]),
        KeyBinding(keys: [.home, .character("g")], action: .top, help: "the newest", contexts: [.refusals]),
        KeyBinding(keys: [.end, .character("G")], action: .bottom, help: "the oldest", contexts: [.refusals]),
        KeyBinding(keys: [.escape, .left, .character("h"), .character("q")], action: .back, help: "back to the list", contexts: [.refusals]),
        KeyBinding(keys: [.character("?"), .function(1)], action: .help, help: "this help", contexts: [.refusals]),
        KeyBinding(keys: [.control("l")], action: .redraw, help: "redraw the screen", contexts: [.refusals]),
    ]

    /// The action bound to `key` in `context`, if any.
    public static func action(for key: Key, in context: KeyContext) -> Action? {
        table[context]?[key]
    }

    private static let table: [KeyContext: [Key: Action]] = {
        var table: [KeyContext: [Key: Action]] = [:]
        for binding in bindings {
            for context in binding.contexts {
                for key in binding.keys where table[context, default: [:]][key] == nil {
                    table[context, default: [:]][key] = binding.action
                }
            }
        }
        return table
    }()
}
