#if canImport(Glibc)
    import Glibc
#endif

/// The program `crates scand` runs to decode: zbar's `zbarcam` on a camera by default, or any
/// shell command (`--decoder`) that prints zbar's `TYPE:DATA` lines, such as `zbarimg` over
/// image files or a bridge from a phone camera.
public struct DecoderCommand: Hashable, Sendable, CustomStringConvertible {
    /// The program and its arguments; `arguments[0]` is a full path, or a bare name that was
    /// not found on $PATH (the run then fails and says so).
    public let arguments: [String]
    /// The camera device, when crates built the command for one (for messages).
    public let device: String?
    /// True for the default zbarcam command.
    public let isZbarcam: Bool
    /// The $PATH a bare program name is looked for in, at each start.
    let searchPath: String?

    /// How the command is shown in the log.
    public var description: String {
        isZbarcam ? (["zbarcam"] + arguments.dropFirst()).joined(separator: " ") : arguments.last ?? ""
    }

    /// zbarcam on `device`, without its video window. zbarcam prints one `TYPE:DATA` line per
    /// reading and flushes it at once; not `--raw`, which drops the symbology name.
    public static func zbarcam(device: String, environment: [String: String]) -> DecoderCommand {
        let program = findExecutable("zbarcam", path: environment["PATH"]) ?? "zbarcam"
        return DecoderCommand(arguments: [program, "--nodisplay", device], device: device, isZbarcam: true, searchPath: environment["PATH"])
    }

    /// A shell command line, run as `/bin/sh -c COMMAND`.
    public static func shell(_ command: String) -> DecoderCommand {
        DecoderCommand(arguments: ["/bin/sh", "-c", command], device: nil, isZbarcam: false, searchPath: nil)
    }

    private init(arguments: [String], device: String?, isZbarcam: Bool, searchPath: String?) {
        self.arguments = arguments
        self.device = device
        self.isZbarcam = isZbarcam
        self.searchPath = searchPath
    }

    /// The program to start now: `arguments[0]` if it is a path, else where it is on the
    /// search path today (zbarcam may have been installed since the daemon started).
    var program: String? {
        guard let name = arguments.first else { return nil }
        return name.hasPrefix("/") ? name : Self.findExecutable(name, path: searchPath)
    }

    /// The full path of `name` in `path` (a $PATH value), if it is there and executable.
    static func findExecutable(_ name: String, path: String?) -> String? {
        for directory in (path ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":") where directory.hasPrefix("/") {
            let candidate = "\(directory)/\(name)"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }
}
