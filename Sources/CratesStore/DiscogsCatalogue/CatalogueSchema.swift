/// The catalogue file's tables. Written whole by a build, then only read.
///
/// - `release`: one row per release, keyed by Discogs' id (the rowid: no second key). The
///   artist credit is kept as Discogs writes it (" (2)" suffixes kept for linking); genres,
///   styles, formats, country and labels as numbers (`CatalogueFacets`), catalogue numbers as
///   text in the labels' order.
/// - `barcode`: (GTIN-14 as an integer, release), WITHOUT ROWID: the key is the table.
/// - `catno`: (`CatalogueNumber.key`, release), WITHOUT ROWID.
/// - `release_text`: FTS5 over artist and title, accents and case folded, reading its text
///   from `release` (external content: the words are not stored twice), column detail only
///   (no positions: a search asks for words, not phrases).
/// - `term`, `label`: the strings `CatalogueFacets` numbers; `meta`: the dump and the build.
enum CatalogueSchema {
    /// Written in `meta` as `format`: a file of another format is not read.
    static let format = "1"

    static let tables = """
        CREATE TABLE meta(key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL) WITHOUT ROWID;
        CREATE TABLE term(id INTEGER PRIMARY KEY, text TEXT NOT NULL);
        CREATE TABLE label(id INTEGER PRIMARY KEY, name TEXT NOT NULL);
        CREATE TABLE release(
            id INTEGER PRIMARY KEY, artist TEXT NOT NULL, title TEXT NOT NULL, labels TEXT NOT NULL,
            facets BLOB NOT NULL, released INTEGER, master INTEGER, main INTEGER NOT NULL);
        CREATE VIRTUAL TABLE release_text USING fts5(
            artist, title, content='release', content_rowid='id',
            tokenize='unicode61 remove_diacritics 2', detail=column, columnsize=0);
        CREATE TEMP TABLE term_key(text TEXT PRIMARY KEY NOT NULL, id INTEGER NOT NULL) WITHOUT ROWID;
        """

    /// The key tables, created after the load and filled in key order
    /// (`DiscogsCatalogueBuilder.writeKeys`): a b-tree written in order is written once and
    /// packed full, where rows inserted as they come would split pages all along.
    static let barcodeTable = """
        CREATE TABLE barcode(gtin INTEGER NOT NULL, release INTEGER NOT NULL, PRIMARY KEY(gtin, release)) WITHOUT ROWID;
        """
    static let catnoTable = """
        CREATE TABLE catno(key TEXT NOT NULL, release INTEGER NOT NULL, PRIMARY KEY(key, release)) WITHOUT ROWID;
        """

    /// The words, indexed a transaction at a time (`DiscogsCatalogueBuilder.indexWords`),
    /// merged into one b-tree at the end.
    static let wordsMerge = """
        INSERT INTO release_text(release_text) VALUES('optimize');
        """
}
