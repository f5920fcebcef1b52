import CratesStore
import CratesTestSupport
import Foundation
import Testing

@Suite struct StoreLocationTests {
    @Test(arguments: [
        // (flag, environment, expected)
        ("/x/flag.sqlite", ["CRATES_DB": "/x/env.sqlite", "XDG_DATA_HOME": "/xdg", "HOME": "/home/u"], "/x/flag.sqlite"),
        (nil, ["CRATES_DB": "/x/env.sqlite", "XDG_DATA_HOME": "/xdg", "HOME": "/home/u"], "/x/env.sqlite"),
        (nil, ["XDG_DATA_HOME": "/xdg", "HOME": "/home/u"], "/xdg/crates/crates.sqlite"),
        (nil, ["XDG_DATA_HOME": "/xdg/", "HOME": "/home/u"], "/xdg/crates/crates.sqlite"),
        (nil, ["HOME": "/home/u"], "/home/u/.local/share/crates/crates.sqlite"),
        // Empty values are absent; a relative XDG_DATA_HOME is ignored (XDG spec).
        ("", ["CRATES_DB": "", "XDG_DATA_HOME": "", "HOME": "/home/u"], "/home/u/.local/share/crates/crates.sqlite"),
        (nil, ["XDG_DATA_HOME": "relative/dir", "HOME": "/home/u"], "/home/u/.local/share/crates/crates.sqlite"),
        ("~/c.sqlite", ["HOME": "/home/u"], "/home/u/c.sqlite"),
        ("rel/c.sqlite", ["HOME": "/home/u"], "rel/c.sqlite"),
    ] as [(String?, [String: String], String)])
    func resolution(flag: String?, environment: [String: String], expected: String) throws {
        #expect(try StoreLocation.resolve(flag: flag, environment: environment) == expected)
    }

    @Test func noHomeIsAnError() {
        #expect(throws: StoreError.self) { try StoreLocation.resolve(flag: nil, environment: [:]) }
    }
}
