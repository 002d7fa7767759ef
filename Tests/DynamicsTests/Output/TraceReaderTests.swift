import DynamicsScenes
import Foundation
import Testing

@testable import Dynamics

@Suite("TraceReader")
struct TraceReaderTests {
    static let header = CSVFrameWriter.header + "\r\n"

    /// A scene file describing `ball` (a 20 pt circle) and `box` (a 30 × 10 pt rectangle).
    static let scene = """
        {"format":"swift-dynamics-trace-scene","version":1}
        {"frame":0,"referenceBounds":[0,0,200,100]}
        {"frame":0,"item":0,"key":"ball","parts":[{"shape":"ellipse","size":[20,20]}]}
        {"frame":0,"item":1,"key":"box","parts":[{"shape":"rectangle","size":[30,10]}]}

        """

    static func row(_ frame: Int, _ item: String, x: String = "50.0", y: String = "40.0", time: String? = nil,
                    resting: String = "false") -> String {
        "\(frame),\(time ?? String(Double(frame + 1) / 60)),\(item),\(x),\(y),0.0,0.0,0.0,0.0,\(resting)\r\n"
    }

    /// Three good frames of two items.
    static let good = header + (0 ..< 3).map { row($0, "ball") + row($0, "box", x: "120.5") }.joined()

    // MARK: Bad traces

    /// A damaged trace, what the reader must say about it (line and the start of the message),
    /// and the items of each frame it still gives.
    struct BadTrace: CustomTestStringConvertible, Sendable {
        var name: String
        var csv: String
        var scene: String? = TraceReaderTests.scene
        var problems: [(TraceDiagnostic.File, Int, String)]
        var itemsPerFrame: [Int]
        var testDescription: String { name }
    }

    static let badTraces: [BadTrace] = [
        BadTrace(name: "empty file", csv: "", problems: [(.frames, 1, "the file is empty")], itemsPerFrame: []),
        BadTrace(name: "header only", csv: header, problems: [(.frames, 2, "no frames")], itemsPerFrame: []),
        BadTrace(name: "truncated last line", csv: good + "3,0.0667,ball,50.",
                 problems: [(.frames, 8, "truncated row: the file ends after 4 of 10 fields")], itemsPerFrame: [2, 2, 2, 0]),
        BadTrace(name: "truncated inside a quoted name", csv: good + "3,0.0667,\"ba",
                 problems: [(.frames, 8, "a quoted field is not closed")], itemsPerFrame: [2, 2, 2, 0]),
        BadTrace(name: "missing column in a row", csv: header + row(0, "ball") + "0,0.0167,box,120.5,40.0,0.0,0.0,0.0,false\r\n" + row(1, "ball"),
                 problems: [(.frames, 3, "9 fields, but the header has 10")], itemsPerFrame: [1, 1]),
        BadTrace(name: "extra column in a row", csv: header + row(0, "ball") + "0,0.0167,box,1,2,120.5,40.0,0.0,0.0,0.0,false\r\n",
                 problems: [(.frames, 3, "11 fields, but the header has 10")], itemsPerFrame: [1]),
        BadTrace(name: "missing column in the header", csv: "frame,time,item,x,angle\r\n0,0.1,ball,3,0\r\n",
                 problems: [(.frames, 1, "the header has no column y")], itemsPerFrame: []),
        BadTrace(name: "non-numeric x", csv: header + row(0, "ball", x: "abc") + row(0, "box") + row(1, "ball"),
                 problems: [(.frames, 2, "x is \"abc\", not a number")], itemsPerFrame: [1, 1]),
        BadTrace(name: "non-finite y", csv: header + row(0, "ball") + row(0, "box", y: "nan") + row(1, "box", y: "-inf"),
                 problems: [(.frames, 3, "y is nan, not a finite number"), (.frames, 4, "y is -inf, not a finite number")],
                 itemsPerFrame: [1, 0]),
        BadTrace(name: "non-finite time", csv: header + row(0, "ball", time: "inf") + row(0, "box"),
                 problems: [(.frames, 2, "time is inf, not a finite number")], itemsPerFrame: [1]),
        BadTrace(name: "frame not a number", csv: header + row(0, "ball") + "x1,0.1,box,1,2,0,0,0,0,false\r\n" + row(1, "ball"),
                 problems: [(.frames, 3, "frame is \"x1\", not a whole number")], itemsPerFrame: [1, 1]),
        BadTrace(name: "resting not a boolean", csv: header + row(0, "ball", resting: "maybe"),
                 problems: [(.frames, 2, "resting is \"maybe\", not true or false")], itemsPerFrame: [0]),
        BadTrace(name: "unknown item", csv: header + row(0, "ball") + row(0, "ghost") + row(1, "ball") + row(1, "ghost"),
                 problems: [(.frames, 3, "item \"ghost\" is not in the scene file")], itemsPerFrame: [2, 2]),
        BadTrace(name: "frames go back", csv: header + row(5, "ball") + row(4, "ball"),
                 problems: [(.frames, 3, "frame 4 follows frame 5"), (.frames, 3, "the time goes back")], itemsPerFrame: [1, 1]),
        BadTrace(name: "no header", csv: row(0, "ball") + row(1, "ball"),
                 problems: [(.frames, 1, "no header; reading the columns in the order")], itemsPerFrame: [1, 1]),
        BadTrace(name: "binary garbage", csv: "\u{0}\u{1}\u{FFFD}\"\r\n,,,\n\"", scene: nil,
                 problems: [(.frames, 1, "the header has no column frame, time, item, x, y")], itemsPerFrame: []),
        BadTrace(name: "bad scene lines", csv: good, scene: scene + "{\"frame\":0,\"item\":2}\nnot json\n{\"frame\":1,\"snapPoints\":[[1,\"a\"]]}\n",
                 problems: [(.scene, 5, "item 2 has no key"), (.scene, 6, "not valid JSON"), (.scene, 7, "snapPoints[0][1] should be a number")],
                 itemsPerFrame: [2, 2, 2]),
        BadTrace(name: "blank lines are not problems", csv: header + "\r\n" + row(0, "ball") + "\r\n\r\n" + row(1, "ball"),
                 problems: [], itemsPerFrame: [1, 1]),
    ]

    @Test(arguments: badTraces)
    func badTracesAreExplainedAndTheGoodFramesKept(_ bad: BadTrace) {
        let reader = TraceReader(text: bad.csv, sceneText: bad.scene)
        var items: [Int] = []
        let renderer = ASCIIRenderer(width: 40, height: 12)
        while let frame = reader.nextFrame() {
            items.append(frame.report.items.count)
            #expect(frame.scene.items.count == frame.report.items.count)
            #expect(renderer.lines(frame.report, scene: frame.scene).count == 12)
        }
        #expect(items == bad.itemsPerFrame)
        #expect(reader.frameCount == bad.itemsPerFrame.count)
        let got = reader.diagnostics.map { "\($0.file) \($0.line): \($0.message)" }
        #expect(reader.diagnostics.count == bad.problems.count, "\(got)")
        for (diagnostic, (file, line, message)) in zip(reader.diagnostics, bad.problems) {
            #expect(diagnostic.file == file && diagnostic.line == line && diagnostic.message.hasPrefix(message), "\(got)")
        }
        #expect(reader.diagnosticCount == reader.diagnostics.count)
    }

    /// Reading a frame again (going back) reports nothing new.
    @Test func problemsAreReportedOnce() {
        let reader = TraceReader(text: Self.header + Self.row(0, "ball", x: "abc") + Self.row(1, "ball"), sceneText: Self.scene)
        _ = reader.frame(at: 1)
        _ = reader.frame(at: 0)
        _ = reader.frame(at: 0)
        _ = reader.frame(at: 1)
        #expect(reader.diagnostics.map(\.line) == [2])
    }

    /// An unknown item is drawn as one `*` where it is.
    @Test func unknownItemsAreMarks() throws {
        let reader = TraceReader(text: Self.header + Self.row(0, "ghost", x: "100", y: "50"), sceneText: Self.scene)
        let frame = try #require(reader.nextFrame())
        var renderer = ASCIIRenderer(width: 42, height: 21)
        renderer.showsStatusLine = false
        let text = renderer.render(frame.report, scene: frame.scene)
        #expect(text.filter { $0 == "*" }.count == 1)
        #expect(renderer.lines(frame.report, scene: frame.scene)[10].contains("*"))
    }

    /// Cutting a trace anywhere never crashes the reader, and every frame before the cut reads
    /// as it did whole.
    @Test func aTraceCutAnywhereStillReads() {
        let bytes = Array(Self.good.utf8)
        let whole = TraceReader(text: Self.good, sceneText: Self.scene)
        var frames: [TraceFrame] = []
        while let frame = whole.nextFrame() { frames.append(frame) }
        #expect(frames.count == 3)
        for cut in 0 ... bytes.count {
            let reader = TraceReader(text: String(decoding: bytes[..<cut], as: UTF8.self), sceneText: Self.scene)
            var count = 0
            while let frame = reader.nextFrame() {
                if frame.position + 1 < (reader.frameCount ?? Int.max) {
                    #expect(frame == frames[frame.position], "cut at \(cut)")
                }
                count += 1
            }
            #expect(count <= 3)
        }
    }

    /// Skimming a record (reading only the frame field, as scanning for frames does) finds the
    /// same records, lines and numbers as the full parser: quoted fields with commas and line
    /// breaks, CRLF and LF, blank lines, overlong fields, a last line without a break, and
    /// records across the buffer's 256 KiB chunks.
    @Test func skimmingAgreesWithTheFullParser() {
        var g = SplitMix64Generator(seed: 5)
        var text = "frame,time,item\r\n"
        var n = 0
        while text.utf8.count < 3 * CSVRecordStream.chunkSize {
            n += 1
            switch g.next() % 10 {
            case 0: text += "\(n),0.5,\"a,\r\nb\"\"c\"\r\n"
            case 1: text += g.next() % 2 == 0 ? "\r\n" : "\n"
            case 2: text += "\"\(n)\",1,x\n"
            case 3: text += "x\(n),1,2\r\n"
            case 4: text += "\(n)\r\n"
            case 5: text += "-\(n),\",\",z\n"
            case 6: text += "\(n),\(String(repeating: "9", count: Int(g.next() % 5000))),p\r\n"
            case 7: text += "\(n),,\r\r\n"
            default: text += "\(n),0.25,ball \(n)\r\n"
            }
        }
        text += "7,0.1,last"
        for k in 0 ..< 4 {
            let full = CSVRecordStream(bytes: Array(text.utf8))
            var expected: [String] = []
            while let r = full.next() {
                expected.append("\(r.offset) \(r.line) \(r.fieldCount > k && !r.tooLong ? full.integer(k).map(String.init) ?? "-" : "-") \(r.isBlank)")
            }
            let fast = CSVRecordStream(bytes: Array(text.utf8))
            var got: [String] = []
            while let s = fast.skim(field: k) {
                got.append("\(s.offset) \(s.line) \(s.integer.map(String.init) ?? "-") \(s.isBlank)")
            }
            #expect(got.count == expected.count, "field \(k)")
            #expect(zip(got, expected).first { $0 != $1 } == nil, "field \(k)")
            #expect(expected.count > 1000)
        }
    }

    // MARK: Old traces

    /// A trace written before scene files existed reads as before, every item a mark, and the
    /// picture fits the items.
    @Test func anOldTraceWithoutASceneReads() throws {
        let writer = CSVFrameWriter()
        let scene = UIKitScenes.named("pyramid")!.make()
        scene.animator.addFrameObserver { writer.write($0) }
        for k in 0 ..< 3 { scene.step(frame: k) }
        #expect(writer.sceneText.isEmpty)
        let reader = TraceReader(text: writer.text)
        #expect(!reader.hasScene)
        let frame = try #require(reader.frame(at: 2))
        #expect(frame.report.items.count == 37)
        #expect(frame.scene.items.allSatisfy { $0.parts.isEmpty })
        #expect(reader.diagnostics.isEmpty)
        var renderer = ASCIIRenderer(width: 60, height: 20)
        renderer.showsStatusLine = false
        let text = renderer.render(frame.report, scene: frame.scene)
        #expect(text.filter { $0 == "*" }.count >= 20)
        // Columns are found by name: another order and an extra column read the same.
        let reordered = "time,extra,x,y,item,frame\r\n0.5,zz,1.5,2.5,ball,7\r\n"
        let other = try #require(TraceReader(text: reordered).nextFrame())
        #expect(other.report.index == 7 && other.report.time == 0.5)
        #expect(other.report.items == [FrameReport.Item(name: "ball", center: CGPoint(x: 1.5, y: 2.5))])
    }

    // MARK: Going back and forth

    @Test func framesReadInAnyOrderAreTheSame() throws {
        let scene = UIKitScenes.named("rain")!.make()
        let writer = CSVFrameWriter()
        writer.record(scene.animator)
        for k in 0 ..< 60 { scene.step(frame: k) }
        let forward = TraceReader(text: writer.text, sceneText: writer.sceneText)
        var frames: [TraceFrame] = []
        while let frame = forward.nextFrame() { frames.append(frame) }
        #expect(frames.count == 59)
        #expect(forward.indexedFrameCount == 59)

        let random = TraceReader(text: writer.text, sceneText: writer.sceneText)
        var generator = SplitMix64Generator(seed: 3)
        for _ in 0 ..< 200 {
            let k = Int(generator.next() % 62)
            let frame = random.frame(at: k)
            #expect(frame == (k < frames.count ? frames[k] : nil))
        }
        #expect(random.time(ofFrameAt: 10) == frames[10].report.time)
        #expect(random.frameNumber(ofFrameAt: 10) == frames[10].report.index)
        #expect(random.time(ofFrameAt: 59) == nil)
        // Drops join the rain: the scene grows as the frames go on, and shrinks going back.
        #expect(frames[0].scene.items.count == 1 && frames[58].scene.items.count == 12)
    }

    // MARK: Memory

    /// The reader holds its buffer, its index (a few dozen bytes a frame) and the scene — not
    /// the frames: reading ten times as many frames holds only the longer index.
    @Test func memoryDoesNotGrowWithTheTrace() throws {
        func heldAfterReading(frames: Int) throws -> (held: Int, fileSize: Int) {
            let items = 200
            let path = FileManager.default.temporaryDirectory.path + "/swift-dynamics-memory-\(UUID().uuidString).csv"
            defer {
                try? FileManager.default.removeItem(atPath: path)
                try? FileManager.default.removeItem(atPath: TraceScene.scenePath(forTrace: path))
            }
            let writer = try CSVFrameWriter(path: path)
            let scene = TraceScene(referenceBounds: CGRect(x: 0, y: 0, width: 1000, height: 1000), items: (0 ..< items).map {
                TraceScene.Item(key: "item \($0)", parts: [TraceScene.Part(.rectangle(CGSize(width: 10, height: 10)))])
            })
            // One frame's rows, made once; each frame repeats them with its own number.
            let rows = (0 ..< items).map { k in
                ",0.5,item \(k),\(Double(k) * 4.987654321),\(Double(k % 37) * 25.123456789),0.1234567,1.5,-2.5,0.25,false\r\n"
            }
            for f in 0 ..< frames {
                if f == 0 {
                    writer.write(FrameReport(index: 0, time: 0.5, steps: 1, items: []), scene: scene)
                }
                let text = rows.map { String(f) + $0 }.joined()
                writer.writeRaw(text)
            }
            writer.close()
            let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber).intValue
            let reader = try TraceReader(path: path)
            var count = 0
            var largest = 0
            while let frame = reader.nextFrame() {
                #expect(frame.report.items.count == items)
                count += 1
                largest = max(largest, reader.heldBytes)
            }
            _ = reader.frame(at: frames / 2)   // and back
            largest = max(largest, reader.heldBytes)
            #expect(count == frames)
            #expect(reader.diagnostics.isEmpty)
            return (largest, size)
        }
        let short = try heldAfterReading(frames: 50)
        let long = try heldAfterReading(frames: 500)
        #expect(long.fileSize > 9 * short.fileSize)
        // The file grew by ~8 MB; what the reader holds grew by the index of 450 more frames.
        #expect(long.held - short.held < 450 * 64 + 16 * 1024, "held \(short.held) → \(long.held) bytes")
        #expect(long.held < 1_000_000 && long.held < long.fileSize / 8, "held \(long.held) of a \(long.fileSize)-byte file")
    }
}
