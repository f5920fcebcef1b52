import CratesCore

extension CoverColours {
    /// The colours `crates cover` draws in, from the environment a terminal sets: 24-bit
    /// colour where COLORTERM says so, 256 where TERM does, else 16.
    public init(environment: [String: String]) {
        let colourTerm = environment["COLORTERM"]?.lowercased() ?? ""
        if colourTerm == "truecolor" || colourTerm == "24bit" {
            self = .direct
        } else {
            self = (environment["TERM"] ?? "").contains("256") ? .palette256 : .sixteen
        }
    }
}
