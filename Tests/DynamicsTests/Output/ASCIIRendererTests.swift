import DynamicsScenes
import Foundation
import Testing

@testable import Dynamics

/// Golden frames live next to this file in `Golden/`, loaded through `#filePath` (no resources in
/// Package.swift). Run with `DYNAMICS_RECORD_GOLDEN=1` to (re-)record them after an intended change
/// in the renderer or the engine, and read the diff before committing.
@Suite("ASCIIRenderer")
struct ASCIIRendererTests {
    // MARK: Golden frames

    /// A golden case: a scene, the steps run before drawing, and the renderer's settings.
    struct GoldenCase: CustomTestStringConvertible, Sendable {
        var file: String
        var width: Int, height: Int
        var braille = false
        var steps: Int
        var make: @Sendable () -> DynamicAnimator
        var testDescription: String { file }
    }

    static let goldenCases: [GoldenCase] = [
        GoldenCase(file: "showcase-frame0", width: 60, height: 16, steps: 0, make: showcase),
        GoldenCase(file: "showcase-frame0-braille", width: 40, height: 10, braille: true, steps: 0, make: showcase),
        GoldenCase(file: "collision_gravity-frame60", width: 64, height: 20, steps: 60) { UIKitScenes.named("collision_gravity")!.make().animator },
        GoldenCase(file: "pendulum-frame40-braille", width: 48, height: 14, braille: true, steps: 40) { UIKitScenes.named("pendulum")!.make().animator },
        GoldenCase(file: "abstract-space-fitted", width: 40, height: 12, steps: 0, make: abstractSpace),
    ]

    /// A still scene that shows every kind of mark: a rotated rectangle, an ellipse, a `.path`
    /// triangle, a group, a slanted boundary, an anchor attachment and an item attachment.
    @Sendable static func showcase() -> DynamicAnimator {
        let animator = DynamicAnimator(referenceBounds: CGRect(x: 0, y: 0, width: 400, height: 200))
        let box = BasicDynamicItem(center: CGPoint(x: 70, y: 130), size: CGSize(width: 60, height: 30), name: "box")
        box.transform = CGAffineTransform(rotationAngle: 0.5)
        let ball = BasicDynamicItem(center: CGPoint(x: 170, y: 140), size: CGSize(width: 50, height: 50), collisionBoundsType: .ellipse)
        let egg = BasicDynamicItem(center: CGPoint(x: 250, y: 60), size: CGSize(width: 70, height: 36), collisionBoundsType: .ellipse)
        let triangle = BasicDynamicItem(center: CGPoint(x: 330, y: 75), size: CGSize(width: 60, height: 60), collisionBoundsType: .path)
        let path = BezierPath()
        path.move(to: CGPoint(x: 0, y: -30))
        path.addLine(to: CGPoint(x: 30, y: 30))
        path.addLine(to: CGPoint(x: -30, y: 30))
        path.close()
        triangle.collisionBoundingPath = path
        let group = DynamicItemGroup(items: [
            BasicDynamicItem(center: CGPoint(x: 60, y: 40), size: CGSize(width: 30, height: 30)),
            BasicDynamicItem(center: CGPoint(x: 90, y: 40), size: CGSize(width: 30, height: 30), collisionBoundsType: .ellipse),
        ])
        let collision = CollisionBehavior(items: [box, ball, egg, triangle, group])
        collision.translatesReferenceBoundsIntoBoundary = true
        collision.addBoundary(withIdentifier: "ramp", from: CGPoint(x: 200, y: 190), to: CGPoint(x: 390, y: 110))
        animator.addBehavior(collision)
        animator.addBehavior(AttachmentBehavior(item: egg, attachedToAnchor: CGPoint(x: 200, y: 20)))
        animator.addBehavior(AttachmentBehavior(item: ball, attachedTo: triangle))
        return animator
    }

    /// An animator without reference bounds: the picture fits the items.
    @Sendable static func abstractSpace() -> DynamicAnimator {
        let animator = DynamicAnimator()
        let a = BasicDynamicItem(center: CGPoint(x: -500, y: 1000), size: CGSize(width: 100, height: 100))
        let b = BasicDynamicItem(center: CGPoint(x: -100, y: 1100), size: CGSize(width: 80, height: 80), collisionBoundsType: .ellipse)
        animator.addBehavior(CollisionBehavior(items: [a, b]))
        return animator
    }

    static var goldenDirectory: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")
    }

    @Test(arguments: goldenCases)
    func goldenFrame(_ golden: GoldenCase) throws {
        let animator = golden.make()
        for _ in 0 ..< golden.steps { animator.step() }
        var renderer = ASCIIRenderer(width: golden.width, height: golden.height)
        renderer.braille = golden.braille
        let frame = renderer.render(animator) + "\n"
        let url = Self.goldenDirectory.appendingPathComponent(golden.file + ".txt")
        if ProcessInfo.processInfo.environment["DYNAMICS_RECORD_GOLDEN"] == "1" {
            try FileManager.default.createDirectory(at: Self.goldenDirectory, withIntermediateDirectories: true)
            try frame.write(to: url, atomically: true, encoding: .utf8)
            return
        }
        let expected = try String(contentsOf: url, encoding: .utf8)
        #expect(frame == expected, "\(golden.file) differs; got:\n\(frame)\n(re-record with DYNAMICS_RECORD_GOLDEN=1 if intended)")
    }

    // MARK: Size

    @Test(arguments: [(1, 1), (2, 1), (10, 3), (80, 24), (37, 13), (0, 4), (5, 0), (-3, 2)], [false, true])
    func exactlyHeightLinesOfWidthCharacters(size: (Int, Int), braille: Bool) {
        let (width, height) = size
        var renderer = ASCIIRenderer(width: width, height: height)
        renderer.braille = braille
        let animator = Self.showcase()
        let lines = renderer.lines(animator)
        #expect(lines.count == max(0, height))
        for line in lines { #expect(line.count == max(0, width)) }
        #expect(renderer.render(animator) == lines.joined(separator: "\n"))
        renderer.showsStatusLine = false
        let bare = renderer.lines(animator)
        #expect(bare.count == max(0, height))
        for line in bare { #expect(line.count == max(0, width)) }
    }

    @Test func statusLineIsTheLastLine() {
        let animator = Self.showcase()
        let renderer = ASCIIRenderer(width: 80, height: 10)
        let lines = renderer.lines(animator)
        #expect(lines.last!.hasPrefix("t 0.00 s  items 5  resting 0"))
        #expect(lines.last!.hasSuffix(" "))
        let custom = renderer.lines(animator, statusLine: "hello\tworld").last!
        #expect(Array(custom.unicodeScalars) == Array(("hello world" + String(repeating: " ", count: 69)).unicodeScalars))
        #expect(renderer.render(animator, statusLine: "hello\tworld").hasSuffix("\n" + custom))
        var tiny = ASCIIRenderer(width: 12, height: 1)
        #expect(tiny.render(animator) == "t 0.00 s  it")
        tiny.showsStatusLine = false
        #expect(tiny.lines(animator).count == 1)
    }

    // MARK: Modes

    @Test func brailleCellsAreBraillePatternsOrSpaces() {
        var renderer = ASCIIRenderer(width: 50, height: 14)
        renderer.braille = true
        renderer.showsStatusLine = false
        let text = renderer.render(Self.showcase())
        var dots = 0
        for scalar in text.unicodeScalars where scalar != "\n" {
            #expect(scalar == " " || (0x2801 ... 0x28FF).contains(scalar.value))
            if scalar != " " { dots += 1 }
        }
        #expect(dots > 100)
        // The same scene in plain mode draws with ASCII only.
        renderer.braille = false
        let plain = renderer.render(Self.showcase())
        #expect(plain.unicodeScalars.allSatisfy { $0.isASCII })
    }

    /// One 100 × 100 pt square in a 1 000 × 1 000 pt world: in plain mode it covers about twice
    /// as many columns as rows, because a cell is about twice as tall as wide.
    @Test func squareItemLooksSquare() {
        let animator = DynamicAnimator(referenceBounds: CGRect(x: 0, y: 0, width: 1000, height: 1000))
        let square = BasicDynamicItem(center: CGPoint(x: 500, y: 500), size: CGSize(width: 100, height: 100))
        animator.addBehavior(CollisionBehavior(items: [square]))
        var renderer = ASCIIRenderer(width: 200, height: 60)
        renderer.showsStatusLine = false
        let (columns, rows) = Self.extent(of: "#", in: renderer.lines(animator))
        #expect(rows >= 5)
        let ratio = Double(columns) / Double(rows)
        #expect(abs(ratio - 2) <= 0.25, "columns \(columns), rows \(rows)")

        // Braille dots are square (2 × 4 to a cell twice as tall as wide): as many dots across as down.
        renderer.braille = true
        let (dotsAcross, dotsDown) = Self.brailleDotExtent(renderer.lines(animator))
        #expect(abs(Double(dotsAcross) / Double(dotsDown) - 1) <= 0.1, "dots \(dotsAcross) × \(dotsDown)")

        // Without aspect correction the 1 000 pt square world fills 200 × 60: the item stretches.
        renderer.braille = false
        renderer.correctsAspectRatio = false
        let stretched = Self.extent(of: "#", in: renderer.lines(animator))
        #expect(abs(Double(stretched.columns) / Double(stretched.rows) - 200.0 / 60.0) <= 0.4)
    }

    @Test func rotationIsDrawn() {
        let animator = DynamicAnimator(referenceBounds: CGRect(x: 0, y: 0, width: 400, height: 400))
        let bar = BasicDynamicItem(center: CGPoint(x: 200, y: 200), size: CGSize(width: 300, height: 20))
        animator.addBehavior(CollisionBehavior(items: [bar]))
        var renderer = ASCIIRenderer(width: 80, height: 40)
        renderer.showsStatusLine = false
        let flat = Self.extent(of: "#", in: renderer.lines(animator))
        bar.transform = CGAffineTransform(rotationAngle: .pi / 2)
        animator.updateItem(usingCurrentState: bar)
        let upright = Self.extent(of: "#", in: renderer.lines(animator))
        #expect(flat.columns > 4 * flat.rows)
        #expect(upright.rows > 2 * upright.columns)
    }

    @Test func abstractSpaceFitsTheItems() {
        let animator = Self.abstractSpace()
        var renderer = ASCIIRenderer(width: 40, height: 12)
        renderer.showsStatusLine = false
        let text = renderer.render(animator)
        #expect(text.contains("#") && text.contains("O"), "a rectangle, then an ellipse (the second item: O)")
        #expect(!text.contains("+"), "no reference bounds, so no frame")
        // An empty abstract animator draws a blank picture.
        let empty = renderer.render(DynamicAnimator())
        #expect(empty.allSatisfy { $0 == " " || $0 == "\n" })
    }

    @Test func visibleRectZoomsIn() {
        let animator = Self.showcase()
        var renderer = ASCIIRenderer(width: 40, height: 12)
        renderer.showsStatusLine = false
        renderer.visibleRect = CGRect(x: 140, y: 110, width: 60, height: 60)   // the ball alone
        let (columns, rows) = Self.extent(of: "O", in: renderer.lines(animator))   // the second item
        #expect(rows >= 9 && columns >= 18)
    }

    @Test func optionsHideBoundariesAndAttachments() {
        let animator = Self.showcase()
        var renderer = ASCIIRenderer(width: 60, height: 16)
        renderer.showsStatusLine = false
        let full = renderer.render(animator)
        #expect(full.contains("o") && full.contains(".") && full.contains("/"))
        renderer.showsAttachments = false
        renderer.showsBoundaries = false
        let bare = renderer.render(animator)
        #expect(!bare.contains("o") && !bare.contains(".") && !bare.contains("/"))
    }

    /// Every other item is drawn with the alternate character, so a row of touching boxes reads
    /// as separate boxes.
    @Test func touchingNeighboursAlternateCharacters() {
        let animator = DynamicAnimator(referenceBounds: CGRect(x: 0, y: 0, width: 300, height: 100))
        let boxes = (0 ..< 3).map { k in
            BasicDynamicItem(center: CGPoint(x: 100 + 50 * CGFloat(k), y: 50), size: CGSize(width: 50, height: 50))
        }
        animator.addBehavior(CollisionBehavior(items: boxes))
        var renderer = ASCIIRenderer(width: 62, height: 12)
        renderer.showsStatusLine = false
        let middle = renderer.lines(animator)[6].trimmingCharacters(in: .whitespaces)
        #expect(middle.hasPrefix("|") && middle.hasSuffix("|"))
        let inside = middle.dropFirst().dropLast().trimmingCharacters(in: .whitespaces)
        #expect(inside == "##########==========##########", "\(inside)")
    }

    /// A boundary along an edge of the reference bounds lies on the frame, whichever edge.
    @Test func boundariesOnTheReferenceEdgesLieOnTheFrame() {
        let animator = DynamicAnimator(referenceBounds: CGRect(x: 0, y: 0, width: 100, height: 100))
        let item = BasicDynamicItem(center: CGPoint(x: 50, y: 50), size: CGSize(width: 10, height: 10))
        let collision = CollisionBehavior(items: [item])
        collision.addBoundary(withIdentifier: "left", from: CGPoint(x: 0, y: 0), to: CGPoint(x: 0, y: 100))
        collision.addBoundary(withIdentifier: "top", from: CGPoint(x: 0, y: 0), to: CGPoint(x: 100, y: 0))
        collision.addBoundary(withIdentifier: "right", from: CGPoint(x: 100, y: 0), to: CGPoint(x: 100, y: 100))
        collision.addBoundary(withIdentifier: "bottom", from: CGPoint(x: 0, y: 100), to: CGPoint(x: 100, y: 100))
        animator.addBehavior(collision)
        var renderer = ASCIIRenderer(width: 22, height: 11)
        renderer.showsStatusLine = false
        let lines = renderer.lines(animator)
        // Every mark but the item's lies on the outermost ring: the frame, which the boundaries
        // cover; the ring just inside stays empty.
        let grid = lines.map(Array.init)
        let marked = grid.indices.flatMap { r in grid[r].indices.filter { grid[r][$0] != " " }.map { (r, $0) } }
        let rows = marked.map(\.0), columns = marked.map(\.1)
        let (top, bottom, left, right) = (rows.min()!, rows.max()!, columns.min()!, columns.max()!)
        for (r, c) in marked where grid[r][c] != "#" {
            #expect(r == top || r == bottom || c == left || c == right, "\n\(lines.joined(separator: "\n"))")
        }
        #expect(grid[top][left + 5] == "-" && grid[bottom][left + 5] == "-")
        #expect(grid[top + 3][left] == "|" && grid[top + 3][right] == "|")
    }

    /// Drawing reads the world and changes nothing a step would not.
    @Test func renderingDoesNotChangeTheSimulation() {
        let watched = UIKitScenes.named("pyramid")!.make()
        let alone = UIKitScenes.named("pyramid")!.make()
        let renderer = ASCIIRenderer(width: 70, height: 20)
        for k in 0 ..< 90 {
            _ = renderer.render(watched.animator)
            watched.step(frame: k)
            alone.step(frame: k)
        }
        #expect(watched.stateHash == alone.stateHash)
    }

    // MARK: Helpers

    /// Columns and rows spanned by `character` in `lines`.
    static func extent(of character: Character, in lines: [String]) -> (columns: Int, rows: Int) {
        var minC = Int.max, maxC = Int.min, minR = Int.max, maxR = Int.min
        for (r, line) in lines.enumerated() {
            for (c, ch) in line.enumerated() where ch == character {
                minC = min(minC, c); maxC = max(maxC, c); minR = min(minR, r); maxR = max(maxR, r)
            }
        }
        return minC > maxC ? (0, 0) : (maxC - minC + 1, maxR - minR + 1)
    }

    /// Dot columns and dot rows spanned by the braille dots in `lines`.
    static func brailleDotExtent(_ lines: [String]) -> (across: Int, down: Int) {
        var minX = Int.max, maxX = Int.min, minY = Int.max, maxY = Int.min
        for (r, line) in lines.enumerated() {
            for (c, ch) in line.enumerated() {
                guard let scalar = ch.unicodeScalars.first, (0x2801 ... 0x28FF).contains(scalar.value) else { continue }
                let bits = scalar.value - 0x2800
                for column in 0 ..< 2 {
                    for row in 0 ..< 4 where bits & UInt32(TextCanvas.brailleBit(column: column, row: row)) != 0 {
                        let x = 2 * c + column, y = 4 * r + row
                        minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
                    }
                }
            }
        }
        return minX > maxX ? (0, 0) : (maxX - minX + 1, maxY - minY + 1)
    }
}

@Suite("DisplayLink drives an animator")
struct DisplayLinkAnimatorTests {
    @Test func animatorFollowsTheLinksTime() {
        let animator = DynamicAnimator(referenceBounds: CGRect(x: 0, y: 0, width: 400, height: 400))
        let ball = BasicDynamicItem(center: CGPoint(x: 200, y: 50), size: CGSize(width: 20, height: 20))
        animator.addBehavior(GravityBehavior(items: [ball]))
        let link = DisplayLink(preferredFramesPerSecond: 30)
        link.add(animator)
        var frames = 0
        animator.addFrameObserver { report in
            frames += 1
            #expect(report.steps == 2)
        }
        for _ in 0 ..< 30 { link.tick() }
        #expect(frames == 30)
        #expect(abs(animator.elapsedTime - link.timestamp) < 1e-9)
        #expect(abs(animator.elapsedTime - 1) < 1e-9)
    }

    @Test func aStallAdvancesAQuarterSecondAtMost() {
        let animator = DynamicAnimator(referenceBounds: CGRect(x: 0, y: 0, width: 400, height: 400))
        let ball = BasicDynamicItem(center: CGPoint(x: 200, y: 50), size: CGSize(width: 20, height: 20))
        animator.addBehavior(GravityBehavior(items: [ball]))
        let link = DisplayLink(preferredFramesPerSecond: 60)
        let token = link.add(animator)
        link.tick(at: 5)   // a five-second stall
        #expect(DisplayLink.maximumAnimatorFrameDuration == 0.25)
        #expect(abs(animator.elapsedTime - 0.25) < 1e-9, "15 steps, not 300")
        link.tick()
        #expect(abs(animator.elapsedTime - (0.25 + 1.0 / 60)) < 1e-9)
        link.removeObserver(token)
        link.tick()
        #expect(abs(animator.elapsedTime - (0.25 + 1.0 / 60)) < 1e-9)
        #expect(DisplayLink.animatorFrameDuration(.nan) == 0)
        #expect(DisplayLink.animatorFrameDuration(-1) == 0)
    }

    @Test func pausedLinkPausesTheAnimatorWithoutAJump() {
        let animator = DynamicAnimator(referenceBounds: CGRect(x: 0, y: 0, width: 400, height: 400))
        let ball = BasicDynamicItem(center: CGPoint(x: 200, y: 50), size: CGSize(width: 20, height: 20))
        animator.addBehavior(GravityBehavior(items: [ball]))
        let link = DisplayLink(preferredFramesPerSecond: 60)
        link.add(animator)
        link.tick()
        link.isPaused = true
        for _ in 0 ..< 10 { link.tick() }
        link.isPaused = false
        link.tick()
        #expect(abs(animator.elapsedTime - 2.0 / 60) < 1e-9)
    }
}
