import Foundation
import Glibc

/// The images crates fetches a day (Discogs once capped applications at 1,000 a day), kept
/// on disk beside the covers (`budget`: the UTC day and the count) so that it holds across
/// runs and processes: each fetch takes one under an exclusive lock of the file, and none is
/// taken once the day's are spent.
public struct CoverBudget: Sendable {
    public static let defaultDailyLimit = 1000

    public let file: String
    public let dailyLimit: Int
    /// Today, as the count's day: injectable for tests.
    public var today: @Sendable () -> String = { CoverBudget.day(Date()) }

    public init(file: String, dailyLimit: Int = CoverBudget.defaultDailyLimit) {
        self.file = file
        self.dailyLimit = dailyLimit
    }

    /// The budget of a cache: its `budget` file.
    public init(cache: CoverCache, dailyLimit: Int = CoverBudget.defaultDailyLimit) {
        self.init(file: cache.directory + "/budget", dailyLimit: dailyLimit)
    }

    /// Takes one image from today's budget; throws `budgetReached` when none is left.
    public func spend() throws(CoverError) {
        let directory = (file as NSString).deletingLastPathComponent
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let descriptor = open(file, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw .cache("cannot open \(file): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        guard flock(descriptor, LOCK_EX) == 0 else { throw .cache("cannot lock \(file): \(String(cString: strerror(errno)))") }
        let day = today()
        var count = Self.count(in: Self.read(descriptor), on: day)
        guard count < dailyLimit else { throw .budgetReached(dailyLimit) }
        count += 1
        let text = Array("\(day) \(count)\n".utf8)
        guard ftruncate(descriptor, 0) == 0, pwrite(descriptor, text, text.count, 0) == text.count else {
            throw .cache("cannot write \(file): \(String(cString: strerror(errno)))")
        }
    }

    /// Images fetched today.
    public var spentToday: Int {
        guard let data = FileManager.default.contents(atPath: file) else { return 0 }
        return Self.count(in: String(decoding: data, as: UTF8.self), on: today())
    }

    /// "2026-11-25 12": the count, when the day is `day`; 0 otherwise (a new day, or a file
    /// that does not read).
    static func count(in text: String, on day: String) -> Int {
        let parts = text.split(whereSeparator: { $0 == " " || $0 == "\n" })
        guard parts.count >= 2, parts[0] == day, let count = Int(parts[1]), count >= 0 else { return 0 }
        return count
    }

    private static func read(_ descriptor: Int32) -> String {
        var buffer = [UInt8](repeating: 0, count: 64)
        let n = pread(descriptor, &buffer, buffer.count, 0)
        return n > 0 ? String(decoding: buffer.prefix(n), as: UTF8.self) : ""
    }

    /// The UTC day of `date`, "2026-11-25".
    public static func day(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let c = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", c.year ?? 0, c.month ?? 0, c.day ?? 0)
    }
}
