import Foundation
import Testing

@testable import Dynamics

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Issue 29: the programs' files are written one way (in place, regular files only) and every
/// write error reaches the caller with the file's name and the cause.
@Suite("Output files")
struct OutputFileTests {
    static func temporaryPath(_ name: String) -> String {
        FileManager.default.temporaryDirectory.path + "/swift-dynamics-\(name)-\(UUID().uuidString)"
    }

    /// A full disk (`/dev/full`) under a trace writer: the rows past the first 64 KiB buffer
    /// fail, the writer stops, and its error names the CSV and says why. Before, the error was an
    /// unnamed `NSError` that the playground never read: it exited 0 with the trace cut mid-row.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/dev/full")))
    func aFullDiskSurfacesInTheWritersError() throws {
        let path = Self.temporaryPath("full") + ".csv"
        let writer = try CSVFrameWriter(path: path, opening: { name throws(OutputFileError) in
            let fd = open("/dev/full", O_WRONLY)
            #expect(fd >= 0)
            return OutputFile(descriptor: fd, path: name)
        })
        var k = 0
        while !writer.isClosed && k < 10_000 {
            writer.write(CSVFrameWriterTests.report(index: k))
            k += 1
        }
        writer.close()
        // 64 KiB of rows of about 120 bytes: the first flush, after ~550 frames, fails.
        #expect(k < 1_000, "the writer went on after the disk was full")
        let error = try #require(writer.error as? OutputFileError)
        #expect(error.path == path && error.code == ENOSPC)
        #expect("\(error)" == "cannot write \(path): \(String(cString: strerror(ENOSPC)))")
        #expect(writer.error?.localizedDescription == "\(error)")
    }

    /// The same error from `OutputFile` itself, and a second write after it fails too.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/dev/full")))
    func writesToAFullDiskThrow() {
        let file = OutputFile(descriptor: open("/dev/full", O_WRONLY), path: "/dev/full")
        #expect(throws: OutputFileError.system("/dev/full", ENOSPC)) { try file.write("x") }
        #expect(throws: OutputFileError.self) { try file.write([1, 2, 3]) }
    }

    /// A symbolic link is written through — the link stays, its target holds the text — by the
    /// CSV writer and by `OutputFile.write(_:to:)` (the `--svg` of the programs), alike. Before,
    /// `--svg` replaced the link with a new regular file while `--csv` wrote through it.
    @Test func linksAreWrittenThroughNotReplaced() throws {
        let target = Self.temporaryPath("target")
        let link = Self.temporaryPath("link") + ".csv"
        defer { for p in [target, link, TraceScene.scenePath(forTrace: link)] { try? FileManager.default.removeItem(atPath: p) } }
        try "old text, longer than the new".write(toFile: target, atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)

        try OutputFile.write("<svg/>", to: link)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == target)
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "<svg/>")

        let writer = try CSVFrameWriter(path: link)
        writer.write(CSVFrameWriterTests.report(index: 0))
        writer.close()
        #expect(writer.error == nil)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == target)
        #expect(try String(contentsOfFile: target, encoding: .utf8).hasPrefix(CSVFrameWriter.header))
    }

    /// What is not a regular file is refused, not replaced and not written: a directory, a
    /// device, a FIFO (without blocking on it), a link to a device — for the CSV, its scene
    /// file, and a whole-file write alike.
    @Test func onlyRegularFilesAreWritten() throws {
        let directory = Self.temporaryPath("dir")
        let fifo = Self.temporaryPath("fifo")
        let link = Self.temporaryPath("devlink")
        let trace = Self.temporaryPath("trace") + ".csv"
        let sceneDirectory = TraceScene.scenePath(forTrace: trace)
        defer { for p in [directory, fifo, link, trace, sceneDirectory] { try? FileManager.default.removeItem(atPath: p) } }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        #expect(mkfifo(fifo, 0o600) == 0)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/dev/null")
        try FileManager.default.createDirectory(atPath: sceneDirectory, withIntermediateDirectories: false)

        for (path, kind) in [(directory, "a directory"), ("/dev/null", "a character device"), (fifo, "a FIFO"), (link, "a character device")] {
            #expect(throws: OutputFileError(path: path, cause: "\(kind), not a regular file; not written")) {
                try OutputFile.write("text", to: path)
            }
            #expect(throws: OutputFileError.self) { try CSVFrameWriter(path: path) }
        }
        // The CSV is fine, its scene file is a directory: refused before anything is written.
        #expect(throws: OutputFileError(path: sceneDirectory, cause: "a directory, not a regular file; not written")) {
            try CSVFrameWriter(path: trace)
        }
        var isDirectory: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: sceneDirectory, isDirectory: &isDirectory) && isDirectory.boolValue)
        #expect(FileManager.default.fileExists(atPath: "/dev/null"))
    }

    /// Appending (bench --csv) adds to a file; a missing folder is an error naming the file.
    @Test func appendingAndMissingFolders() throws {
        let path = Self.temporaryPath("append")
        defer { try? FileManager.default.removeItem(atPath: path) }
        for line in ["a\n", "b\n"] {
            let file = try OutputFile(path: path, append: true)
            try file.write(line)
            try file.close()
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "a\nb\n")
        let missing = Self.temporaryPath("no-such-folder") + "/scene.csv"
        #expect(throws: OutputFileError.system(missing, ENOENT)) { try OutputFile(path: missing, append: true) }
    }

    /// One helper escapes what a file may hold before it reaches a terminal.
    @Test func controlCharactersAreEscaped() {
        #expect(TerminalText.escaped("plain, ünïcode ✓") == "plain, ünïcode ✓")
        #expect(TerminalText.escaped("a\u{1B}]0;title\u{07}b") == "a\\u{1B}]0;title\\u{7}b")
        #expect(TerminalText.escaped("1\n2\r3\t4\u{7F}5\u{9B}6\u{202E}7") == "1\\n2\\r3\\t4\\u{7F}5\\u{9B}6\\u{202E}7")
        let once = TerminalText.escaped("\u{1B}[2J")
        #expect(TerminalText.escaped(once) == once)
        #expect(!once.unicodeScalars.contains { $0.value < 0x20 })
    }
}
