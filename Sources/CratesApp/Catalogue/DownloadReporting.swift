/// What a download says while it runs (`CatalogueFetch`): its bytes as they come, and lines
/// of its own; the executable decides how they are drawn (a bar on a terminal, plain lines
/// to a file).
public protocol DownloadReporting: Sendable {
    /// The file being downloaded, as the lines name it.
    func start(_ name: String)
    /// An attempt's answer began: `done` bytes already in the file, `total` when known.
    func begin(from done: Int64, total: Int64?)
    /// `done` bytes in the file now (`total` when the answer told it).
    func advance(to done: Int64, total: Int64?)
    /// No bytes for a while: the rate and the time left follow a stall.
    func tick()
    /// A line of its own, below any bar.
    func note(_ text: String)
    /// The attempt ended.
    func finish()
}
