/// This build's version: `crates --version`, and the User-Agent Discogs sees.
public enum CratesVersion {
    public static let current = "0.1.0"
}
