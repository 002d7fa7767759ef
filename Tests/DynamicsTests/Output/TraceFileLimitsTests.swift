import DynamicsScenes
import Foundation
import Testing

@testable import Dynamics

/// Issue 29: files must not attack the reader — not its memory, not its time, not the terminal
/// its messages reach — and a bad side file says what is wrong with which file.
@Suite("Trace files: limits")
struct TraceFileLimitsTests {
    static let header = "frame,time,item,x,y\n"

    /// `frames` frames of one row each: frame k at x = k % 1000.
    static func longTrace(frames: Int) -> String {
        var text = header
        text.reserveCapacity(frames * 24)
        for k in 0 ..< frames { text += "\(k),\(Double(k) / 64),0,\(k % 1000),5\n" }
        return text
    }

    /// Before, the reader kept 48 bytes for every frame it passed: 2 000 000 one-row frames
    /// peaked at 154 MB. Now the index keeps at most 16 384 entries (every 2nd, 4th … frame as
    /// the trace grows), so passing 50 000 or 200 000 frames holds the same, and every frame
    /// still reads back right, at random and in order.
    @Test func theIndexDoesNotGrowWithTheTrace() throws {
        func held(frames: Int) throws -> Int {
            let reader = TraceReader(text: Self.longTrace(frames: frames))
            #expect(reader.time(ofFrameAt: frames - 1) == Double(frames - 1) / 64)
            #expect(reader.frameNumber(ofFrameAt: frames) == nil && reader.frameCount == frames)
            var g = SplitMix64Generator(seed: UInt64(frames))
            for _ in 0 ..< 200 {
                let k = Int(g.next() % UInt64(frames))
                let frame = try #require(reader.frame(at: k))
                #expect(frame.report.index == k && frame.report.items.first?.center.x == CGFloat(k % 1000))
                #expect(reader.frameNumber(ofFrameAt: k) == k)
            }
            // In order from a frame between index entries: each found from the one before.
            _ = reader.frame(at: frames - 1001)
            for k in 0 ..< 1000 { #expect(reader.nextFrame()?.report.index == frames - 1000 + k) }
            #expect(reader.diagnostics.isEmpty)
            return reader.heldBytes
        }
        let short = try held(frames: 50_000)
        let long = try held(frames: 200_000)
        // 200 000 × 48 bytes was 9.6 MB; now about 16 384 entries of 40 bytes, and the buffer.
        #expect(long < 1_600_000, "held \(long) bytes")
        #expect(long - short < 64 * 1024, "held \(short) → \(long) bytes")
    }

    /// A problem in a frame the thinned index does not hold is reported once, however often the
    /// frame is read again.
    @Test func framesBetweenIndexEntriesReportOnce() throws {
        var text = Self.longTrace(frames: 40_000)
        text += "40000,625,0,abc,5\n40001,625.1,0,1,5\n"
        let reader = TraceReader(text: text)
        var count = 0
        while reader.nextFrame() != nil { count += 1 }
        #expect(count == 40_002)
        #expect(reader.diagnostics.map(\.line) == [40_002])
        for k in [40_000, 39_999, 40_000, 12_345, 40_000] { _ = reader.frame(at: k) }
        #expect(reader.diagnosticCount == 1)
    }

    /// `playground replay /dev/zero` never ended: the reader read zeros for ever. A trace must be
    /// a regular file (it is read by seeking); anything else is refused at once, by name.
    @Test func aDeviceOrADirectoryIsNoTrace() throws {
        #expect(throws: TraceFileError(path: "/dev/zero", problem: "a character device, not a trace file")) {
            try TraceReader(path: "/dev/zero")
        }
        let directory = FileManager.default.temporaryDirectory.path + "/swift-dynamics-dir-\(UUID().uuidString).csv"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(throws: TraceFileError(path: directory, problem: "a directory, not a trace file")) {
            try TraceReader(path: directory)
        }
    }

    /// A scene side file that is a directory aborted the whole replay with a message naming the
    /// CSV. Now it is a diagnostic of the scene file, and the frames play without it.
    @Test func aBadSceneFileIsADiagnosticOfTheSceneFile() throws {
        let path = FileManager.default.temporaryDirectory.path + "/swift-dynamics-side-\(UUID().uuidString).csv"
        let scenePath = TraceScene.scenePath(forTrace: path)
        defer { for p in [path, scenePath] { try? FileManager.default.removeItem(atPath: p) } }
        try (Self.header + "0,0,ball,1,2\n1,0.1,ball,1,3\n").write(toFile: path, atomically: false, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: scenePath, withIntermediateDirectories: false)
        let reader = try TraceReader(path: path)
        #expect(!reader.hasScene)
        #expect(reader.diagnostics == [TraceDiagnostic(file: .scene, line: 0, message: "a directory, not a scene file; the frames are drawn without it")])
        #expect(reader.diagnostics.first?.description == "scene file: a directory, not a scene file; the frames are drawn without it")
        #expect(reader.nextFrame()?.report.items.count == 1 && reader.nextFrame() != nil)
    }

    /// Text from the file reaches messages with its control characters escaped: an item name
    /// or a field holding ESC … BEL cannot retitle or clear the terminal the message is printed on.
    @Test func messagesCarryNoControlCharacters() {
        let scene = """
            {"format":"swift-dynamics-trace-scene","version":1}
            {"frame":0,"item":0,"key":"ball","parts":[{"shape":"ellipse","size":[20,20]}]}
            {"format":"\\u001b]0;owned\\u0007"}

            """
        let csv = Self.header + "0,0,\u{1B}[2J\u{1B}]0;owned\u{07},1,2\n1,0,ball,\u{1B}[31m,2\n"
        let reader = TraceReader(text: csv, sceneText: scene)
        while reader.nextFrame() != nil {}
        #expect(reader.diagnostics.count == 3, "\(reader.diagnostics)")
        for d in reader.diagnostics {
            #expect(!d.message.unicodeScalars.contains { TerminalText.needsEscape($0) }, "\(d)")
        }
        #expect(reader.diagnostics.contains { $0.message == "item \"\\u{1B}[2J\\u{1B}]0;owned\\u{7}\" is not in the scene file; drawn as a mark" })
    }

    /// One 120-byte scene line naming item 9 999 999 made the scene hold ten million item
    /// descriptions (422 MB). An item line may now place an item at most one past those placed.
    @Test func anItemFarPastTheOthersIsRefused() throws {
        let scene = """
            {"format":"swift-dynamics-trace-scene","version":1}
            {"frame":0,"item":0,"key":"ball","parts":[{"shape":"ellipse","size":[20,20]}]}
            {"frame":0,"item":9999999,"key":"far","parts":[{"shape":"ellipse","size":[20,20]}]}
            {"frame":0,"item":1,"key":"box","parts":[{"shape":"rectangle","size":[30,10]}]}

            """
        let reader = TraceReader(text: Self.header + "0,0,ball,1,2\n0,0,box,3,4\n", sceneText: scene)
        let frame = try #require(reader.nextFrame())
        #expect(frame.scene.items.map(\.key) == ["ball", "box"])
        #expect(reader.diagnostics.map(\.description) == ["scene line 3: item 9999999 leaves a gap: 1 items are placed so far, so the next is item 1; line skipped"])
        #expect(reader.heldBytes < 1_000_000)
    }

    /// An empty scene file describes nothing: the trace reads as one without a scene (the
    /// writer empties an old scene file it does not write over).
    @Test func anEmptySceneIsNone() {
        #expect(!TraceReader(text: Self.header + "0,0,a,1,2\n", sceneText: "").hasScene)
        #expect(TraceReader(text: Self.header + "0,0,a,1,2\n", sceneText: "{\"format\":\"swift-dynamics-trace-scene\"}\n").hasScene)
    }
}
