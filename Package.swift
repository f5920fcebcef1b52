// swift-tools-version:6.2
import PackageDescription

/// Strict by default: Swift 6 language mode (strict concurrency), and no warnings: a warning
/// in our own targets fails the build (dependencies are not affected).
let strict: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .treatAllWarnings(as: .error),
]

/// The dump's reader and generator optimised in the debug build as well: the tests push
/// hundreds of megabytes through their byte loops (the catalogue's memory test alone 450,000
/// generated releases), which take four times the CPU unoptimised (measured: 20,000 releases
/// built in 2.53 s of CPU against 0.65). Nobody steps through them in a debugger; their
/// tests still run against this code.
let optimizedInDebug: [SwiftSetting] = [.unsafeFlags(["-O"], .when(configuration: .debug))]

/// Linux only: crates uses Glibc, /proc, setpriv, SO_PEERCRED and the Debian packages its
/// set-up installs (see README.md); there is no macOS build to keep.
let package = Package(
    name: "crates",
    products: [
        .executable(name: "crates", targets: ["crates"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
    ],
    targets: [
        // System libraries: a module map plus a shim header of static inline wrappers for
        // what Swift cannot import (macros, variadic functions, mutable C globals).
        .systemLibrary(name: "CNcursesW", path: "Sources/CNcursesW"),
        .systemLibrary(name: "CCrypto", path: "Sources/CCrypto"),
        .systemLibrary(name: "CZint", path: "Sources/CZint"),
        .systemLibrary(name: "CCairo", path: "Sources/CCairo"),
        // Discogs' data dump: ISA-L inflates it and crates' own scanner reads it (glibc's memmem
        // finds its tags); zlib writes the generator's dumps, and zlib and expat are what the
        // tests hold ISA-L's inflate and the scanner to.
        .systemLibrary(name: "CIsal", path: "Sources/CIsal"),
        .systemLibrary(name: "CStringSearch", path: "Sources/CStringSearch"),
        .systemLibrary(name: "CZlib", path: "Sources/CZlib"),
        .systemLibrary(name: "CExpat", path: "Sources/CExpat"),
        // Covers: JPEG and PNG decoded (the shims' decoders keep libjpeg's and libpng's
        // longjmp in C), drawn as terminal symbols by chafa, whose header needs glib's paths.
        .systemLibrary(name: "CJpeg", path: "Sources/CJpeg"),
        .systemLibrary(name: "CPng", path: "Sources/CPng"),
        .systemLibrary(name: "CChafa", path: "Sources/CChafa", pkgConfig: "chafa"),

        // Pure Swift: no C, no I/O.
        .target(name: "CratesCore", swiftSettings: strict),
        .target(
            name: "CratesStore",
            // GRDBSQLite: SQLite's C interface, for the catalogue's build (millions of rows) and
            // the filter's text function (FilterContains).
            dependencies: [
                "CratesCore", .product(name: "GRDB", package: "GRDB.swift"), .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ],
            swiftSettings: strict),
        // libcurl, loaded by the first transfer (dlopen), not at start: see crates_curl.h.
        .target(name: "CCurl"),
        .target(name: "CratesNet", dependencies: ["CratesCore", "CCurl", "CCrypto"], swiftSettings: strict),
        .target(name: "CratesTUI", dependencies: ["CratesCore", "CNcursesW"], swiftSettings: strict),
        // Label PDFs: symbols from libzint's vector output, pages drawn with cairo.
        .target(name: "CratesLabels", dependencies: ["CratesCore", "CZint", "CCairo"], swiftSettings: strict),
        // Discogs' releases data dump read as a stream: inflating and parsing on threads of
        // their own, releases handed out in batches (`DumpReader`).
        .target(name: "CratesDump", dependencies: ["CratesCore", "CIsal", "CStringSearch"], swiftSettings: strict + optimizedInDebug),
        // Covers as terminal cells (`CoverRenderer`): an image's bytes sniffed, decoded and
        // drawn with chafa. Nothing of curses: the UI paints the cells it returns.
        .target(name: "CratesCovers", dependencies: ["CratesCore", "CJpeg", "CPng", "CChafa"], swiftSettings: strict),
        // The project's own generator of realistic dumps (2025 format, with every trait of the
        // real ones), for the tests and the catalogue benchmark.
        .target(name: "CratesDumpGenerator", dependencies: ["CratesCore", "CZlib"], swiftSettings: strict + optimizedInDebug),
        // The use cases (add, import, look up, sign in, the TUI session…), shared by the
        // commands and the collection UI. Knows nothing of the terminal UI.
        .target(name: "CratesApp", dependencies: ["CratesCore", "CratesStore", "CratesNet", "CratesLabels", "CratesDump"], swiftSettings: strict),
        // Argument parsing, one call into CratesApp, printing; and the TUI's wiring.
        .executableTarget(
            name: "crates",
            dependencies: [
                "CratesCore", "CratesStore", "CratesNet", "CratesTUI", "CratesApp", "CratesCovers",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict),
        // The store benchmark (scripts/bench.sh), also the writer process of the store's
        // kill -9 test: kept out of the shipping `crates` binary.
        // Also the driver processes of the store's and the scanner's process tests (Drivers).
        .executableTarget(name: "crates-bench", dependencies: ["CratesCore", "CratesStore", "CratesNet", "CratesApp", "CratesDump", "CratesDumpGenerator"], swiftSettings: strict),
        // The UI benchmark (scripts/bench.sh): the UI core over a 100,000-record store; with
        // --check (scripts/bench-check.sh), check mode's scans answered by the app's check.
        .executableTarget(name: "crates-tui-bench", dependencies: ["CratesCore", "CratesStore", "CratesTUI", "CratesApp"], swiftSettings: strict),

        // What every test target shares: waits with deadlines, the process runner, the
        // loopback Discogs server, a lock box, temporary directories, a seeded generator.
        .target(
            name: "CratesTestSupport", dependencies: ["CratesCore", "CratesNet"], path: "Tests/CratesTestSupport",
            swiftSettings: strict),
        .testTarget(name: "CratesCoreTests", dependencies: ["CratesCore", "CratesTestSupport"], swiftSettings: strict),
        // GRDB and its SQLite module directly: the paging test counts SQLite's VM steps.
        .testTarget(
            name: "CratesStoreTests",
            dependencies: [
                "CratesStore", "CratesTestSupport", "crates-bench", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ],
            swiftSettings: strict),
        // CratesStore too: the worker's tests against a real store file, locked by another process.
        .testTarget(
            name: "CratesNetTests", dependencies: ["CratesNet", "CratesStore", "CratesTestSupport", "crates-bench"],
            swiftSettings: strict),
        // The dump reader over real release elements and generated dumps (crates-bench's generator);
        // SQLite's C interface to check the catalogue build's key order against SQLite's own.
        .testTarget(
            name: "CratesDumpTests",
            dependencies: [
                "CratesDump", "CratesDumpGenerator", "CratesCore", "CratesStore", "CratesTestSupport", "CZlib", "CExpat", "CStringSearch",
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ],
            swiftSettings: strict),
        .testTarget(name: "CratesTUITests", dependencies: ["CratesTUI", "CratesTestSupport"], swiftSettings: strict),
        // Decodes and draws the image fixtures of Tests/Fixtures/covers (real encoders' files).
        .testTarget(name: "CratesCoversTests", dependencies: ["CratesCovers", "CratesCore", "CratesTestSupport"], swiftSettings: strict),
        // Renders label PDFs and reads them back with pdftoppm, zbarimg and pdfinfo.
        .testTarget(name: "CratesLabelsTests", dependencies: ["CratesLabels", "CratesTestSupport"], swiftSettings: strict),
        .testTarget(name: "CratesAppTests", dependencies: ["CratesApp", "CratesCore", "CratesStore", "CratesNet", "CratesTestSupport"], swiftSettings: strict),
        // Runs the built `crates` binary as a process (and under tmux for end-to-end tests).
        .testTarget(
            name: "CratesCLITests", dependencies: ["CratesCore", "CratesStore", "CratesLabels", "CratesTestSupport", "CratesDumpGenerator"],
            swiftSettings: strict),
    ]
)
