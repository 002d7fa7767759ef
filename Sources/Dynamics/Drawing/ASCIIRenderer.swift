import DynamicsEngine
import Foundation

/// Draws an animator's world — live, or a frame of a recorded trace — as text: a debug view for
/// terminals, logs and golden-file tests.
///
/// ``render(_:)`` returns exactly ``height`` lines of exactly ``width`` characters, joined by
/// `"\n"` (no line ending after the last). What it draws, back to front:
/// - the reference bounds as a frame around the picture (`+`, `-`, `|`);
/// - every collision boundary: segments and flattened paths, each segment drawn with the
///   character that follows its slope on screen (`-`, `|`, `/`, `\`); the reference-bounds
///   boundary shows as the frame, or as its own rectangle when it is inset;
/// - attachments as lines of `.` (anchor ↔ item center, item center ↔ item center);
/// - items as filled shapes, rotated, as the engine simulates them: rectangles `#`, ellipses
///   `@` (the ellipse itself; the engine's polygon is within 0.5 pt of it),
///   ``DynamicItemCollisionBoundsType/path`` items `%` (the convex outline in use), every other
///   item (in the order items joined) in `=`, `O` and `&` instead, so touching items stay
///   apart; a ``DynamicItemGroup`` draws each member with its own shape's character; an item a
///   trace does not describe is one `*`;
/// - attachment anchors `o` and snap points `x`;
/// - the status line (``showsStatusLine``): time, items, resting items, touching contacts,
///   running or paused.
///
/// In ``braille`` mode every cell holds 2 × 4 dots (Unicode braille patterns), so motion looks
/// smooth, and all marks are dots; the status line stays text.
///
/// **One drawing for live and replayed frames.** The animator is drawn from its
/// ``TraceScene`` (shapes in the items' own space) and its items' poses, the same two things a
/// trace records; ``render(_:scene:)`` draws a ``FrameReport`` read back from a trace with the
/// same routine. A frame replayed from a trace is therefore the live frame, character for
/// character.
///
/// **What is shown.** ``visibleRect`` when set; otherwise the animator's reference bounds; for an
/// animator made with ``DynamicAnimator/init()``, the bounding box of its items (and anchors),
/// padded by 5 %, recomputed every frame. The region is scaled to fit and centred.
///
/// **Aspect.** Terminal cells are about twice as tall as they are wide (``cellAspectRatio``, 2).
/// With ``correctsAspectRatio`` (the default) a point covers the same distance on screen across
/// and down, so a square item looks square: in plain mode it spans about twice as many columns
/// as rows.
///
/// Rendering reads the animator and changes nothing a step would not: it first applies pending
/// behaviour changes to the world (as ``DynamicAnimator/items(in:)`` does), so a frame drawn
/// before the first step shows the items where they start. Inside a frame observer the world is
/// locked and drawn exactly as the frame left it — the frame the observer's report describes.
///
/// **Drawing every frame.** In a frame observer, draw the report it receives with
/// ``render(_:of:)``: the poses come from the report, and the scene (boundaries, attachments,
/// shapes) from the animator, which keeps it between frames and describes it again only after
/// something in it changed. ``render(_:)`` gives the same characters but reads
/// every item's pose again.
///
/// ```swift
/// let renderer = ASCIIRenderer(width: 80, height: 24)
/// animator.addFrameObserver { report in print(renderer.render(report, of: animator)) }
/// ```
public struct ASCIIRenderer: Sendable {
    /// The width of the picture, in characters (terminal columns). Negative values count as 0,
    /// values above ``maximumSide`` (1000) as 1000, with a diagnostic on the animator drawn.
    public var width: Int

    /// The height of the picture, in lines, the status line included. Negative values count as
    /// 0, values above ``maximumSide`` (1000) as 1000, with a diagnostic on the animator drawn.
    public var height: Int

    /// The largest width and height drawn, in characters: 1000 (a million cells; more would only
    /// exhaust memory).
    public static let maximumSide = 1000

    /// Whether to draw with Unicode braille patterns, 2 × 4 dots a cell, for smooth motion.
    /// Default `false`: one character a cell, shapes in plain ASCII.
    public var braille = false

    /// Whether the last line is a status line (time, items, resting, contacts, running/paused).
    /// Default `true`. With a height of 1 the picture is the status line alone.
    public var showsStatusLine = true

    /// Whether a point spans the same distance on screen across and down, so squares look
    /// square (the region shown is then centred, with blank margins). Default `true`; `false`
    /// stretches the region over the whole picture.
    public var correctsAspectRatio = true

    /// The height of a terminal cell divided by its width, used by ``correctsAspectRatio``.
    /// Default 2, right for most terminal fonts. Non-finite or non-positive values mean 2.
    public var cellAspectRatio: Double = 2

    /// Whether to draw collision boundaries (the reference-bounds frame is always drawn).
    /// Default `true`.
    public var showsBoundaries = true

    /// Whether to draw attachments, their anchors and snap points. Default `true`.
    public var showsAttachments = true

    /// The region to show, in points of the animator's coordinate space; default `nil`: the
    /// reference bounds, or the items' bounding box for an animator without reference bounds.
    /// An empty or non-finite rectangle counts as `nil`.
    public var visibleRect: CGRect? = nil

    /// Marks drawn over the picture, after everything else, in the animator's coordinate space:
    /// a ray and its hits, a finger's position, a region under test. Default empty.
    ///
    /// ```swift
    /// var renderer = ASCIIRenderer(width: 80, height: 24)
    /// let eye = CGPoint(x: 20, y: 20), target = CGPoint(x: 300, y: 200)
    /// if let hit = animator.raycast(from: eye, to: target) {
    ///     renderer.overlays = [.line(from: eye, to: hit.point), .point(hit.point, character: "X")]
    /// }
    /// ```
    ///
    /// A mark with a non-finite coordinate is not drawn; when an animator is drawn, that is
    /// reported once as a ``DynamicsDiagnostic`` (`.nonFiniteValue`). Lines are clipped to the
    /// picture.
    public var overlays: [Overlay] = []

    /// One mark of ``overlays``.
    public enum Overlay: Sendable, Hashable {
        /// A straight line between two points (points of the animator's space), drawn with
        /// `character`, or, when `nil` (the default), with the character of its slope on screen
        /// (`-`, `|`, `/`, `\`); in ``braille`` mode as dots.
        case line(from: CGPoint, to: CGPoint, character: Character? = nil)
        /// One character at a point (points of the animator's space); in ``braille`` mode a dot.
        case point(CGPoint, character: Character)

        /// Whether every coordinate of the mark is finite (a mark that is not is not drawn).
        var isFinite: Bool {
            switch self {
            case .line(let from, let to, _):
                return from.x.isFinite && from.y.isFinite && to.x.isFinite && to.y.isFinite
            case .point(let p, _): return p.x.isFinite && p.y.isFinite
            }
        }
    }

    /// Creates a renderer of `width × height` characters, the status line included.
    ///
    /// - Parameters:
    ///   - width: Columns, in characters (e.g. 80).
    ///   - height: Lines (e.g. 24).
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    // MARK: Rendering an animator

    /// The animator's world as `height` lines of `width` characters joined by `"\n"`, with the
    /// default status line when ``showsStatusLine`` is on.
    ///
    /// - Parameter animator: The animator to draw.
    public func render(_ animator: DynamicAnimator) -> String {
        lines(animator).joined(separator: "\n")
    }

    /// The animator's world as `height` lines of `width` characters joined by `"\n"`, with
    /// `statusLine` as the last line (cut or padded to `width`) when ``showsStatusLine`` is on.
    ///
    /// - Parameters:
    ///   - animator: The animator to draw.
    ///   - statusLine: The text of the status line, e.g. ``statusLine(for:)-(DynamicAnimator)`` plus your own
    ///     figures. Control characters show as spaces; one character is one column.
    public func render(_ animator: DynamicAnimator, statusLine: String) -> String {
        lines(animator, statusLine: statusLine).joined(separator: "\n")
    }

    /// The picture as an array of exactly `height` strings of exactly `width` characters.
    ///
    /// - Parameters:
    ///   - animator: The animator to draw.
    ///   - statusLine: The status line's text; default `nil`: ``statusLine(for:)-(DynamicAnimator)``.
    public func lines(_ animator: DynamicAnimator, statusLine: String? = nil) -> [String] {
        animator.ensureSynced()
        return lines(animator.makeFrameReport(steps: 0), of: animator, statusLine: statusLine)
    }

    /// The default status line: simulated time (s), items, resting items, touching contacts and
    /// whether the animator runs, e.g. `t 1.25 s  items 12  resting 3  contacts 9  running`.
    ///
    /// - Parameter animator: The animator to describe.
    public func statusLine(for animator: DynamicAnimator) -> String {
        animator.ensureSynced()
        return Self.status(of: animator)
    }

    /// The default status line of the world as it is (no synchronisation first).
    private static func status(of animator: DynamicAnimator) -> String {
        let s = animator.statistics
        let time = String(format: "%.2f", animator.elapsedTime)
        return "t \(time) s  items \(s.items)  resting \(s.restingItems)  contacts \(s.touchingContacts)  "
            + (animator.isRunning ? "running" : "paused")
    }

    // MARK: Rendering a frame as it happens

    /// The frame a frame observer receives, drawn from its report, as `height` lines of `width`
    /// characters joined by `"\n"`, with the default status line
    /// (``statusLine(for:)-(DynamicAnimator)``) when ``showsStatusLine`` is on.
    ///
    /// Inside the observer this is, character for character, ``render(_:)``, without reading
    /// every item's pose again. The scene comes from the animator's cache: boundaries,
    /// attachments and shapes are described again only after they changed (a behaviour's
    /// setting, an anchor, items joining or leaving, a resize). Unlike ``render(_:)`` it applies
    /// no pending behaviour changes, here or outside an observer: it draws the world as the
    /// frame left it (an item added by a callback shows from the next frame on, as in the
    /// report).
    ///
    /// - Parameters:
    ///   - report: The frame's poses: the report ``DynamicAnimator/addFrameObserver(_:)`` hands
    ///     the observer. (A report kept from an earlier frame is drawn with the scene of now.)
    ///   - animator: The animator the report came from: its scene and status line.
    public func render(_ report: FrameReport, of animator: DynamicAnimator) -> String {
        lines(report, of: animator).joined(separator: "\n")
    }

    /// The frame a frame observer receives, drawn from its report (see ``render(_:of:)``), with
    /// `statusLine` as the last line when ``showsStatusLine`` is on.
    ///
    /// - Parameters:
    ///   - report: The frame's poses.
    ///   - animator: The animator the report came from.
    ///   - statusLine: The text of the status line.
    public func render(_ report: FrameReport, of animator: DynamicAnimator, statusLine: String) -> String {
        lines(report, of: animator, statusLine: statusLine).joined(separator: "\n")
    }

    /// The frame a frame observer receives (see ``render(_:of:)``) as an array of exactly
    /// `height` strings of exactly `width` characters. Sizes above ``maximumSide`` are drawn at
    /// ``maximumSide``, with a diagnostic on `animator`.
    ///
    /// - Parameters:
    ///   - report: The frame's poses.
    ///   - animator: The animator the report came from.
    ///   - statusLine: The status line's text; default `nil`: ``statusLine(for:)-(DynamicAnimator)``.
    public func lines(_ report: FrameReport, of animator: DynamicAnimator, statusLine: String? = nil) -> [String] {
        if width > Self.maximumSide || height > Self.maximumSide {
            let property = width > Self.maximumSide ? "ASCIIRenderer.width" : "ASCIIRenderer.height"
            animator.reportOnce(.valueOutOfRange(property: property),
                                "ASCIIRenderer: \(width) × \(height) characters is too large; drawing at most \(Self.maximumSide) × \(Self.maximumSide).")
        }
        if let bad = overlays.firstIndex(where: { !$0.isFinite }) {
            let message = "ASCIIRenderer: overlay \(bad) has a non-finite coordinate; it is not drawn."
            animator.reportOnce(.nonFiniteValue(property: "ASCIIRenderer.overlays"), message)
        }
        let status = showsStatusLine ? (statusLine ?? Self.status(of: animator)) : ""
        return compose(scene: animator.traceScene(), poses: report.items, statusLine: status)
    }

    // MARK: Rendering a recorded frame

    /// A recorded frame as `height` lines of `width` characters joined by `"\n"`, with the
    /// default status line (``statusLine(for:)-(FrameReport)``) when ``showsStatusLine`` is on.
    ///
    /// - Parameters:
    ///   - report: The frame: the items' poses (`center`, `angle`), e.g. from ``TraceReader``.
    ///   - scene: What the items look like: `scene.items[i]` is drawn at `report.items[i]`'s
    ///     pose; an item past the end of `scene.items`, or without parts, is one `*`.
    public func render(_ report: FrameReport, scene: TraceScene) -> String {
        lines(report, scene: scene).joined(separator: "\n")
    }

    /// A recorded frame as `height` lines of `width` characters joined by `"\n"`, with
    /// `statusLine` as the last line when ``showsStatusLine`` is on.
    ///
    /// - Parameters:
    ///   - report: The frame's poses.
    ///   - scene: What the items look like (see ``render(_:scene:)``).
    ///   - statusLine: The text of the status line.
    public func render(_ report: FrameReport, scene: TraceScene, statusLine: String) -> String {
        lines(report, scene: scene, statusLine: statusLine).joined(separator: "\n")
    }

    /// A recorded frame as an array of exactly `height` strings of exactly `width` characters.
    /// Sizes above ``maximumSide`` are drawn at ``maximumSide``.
    ///
    /// - Parameters:
    ///   - report: The frame's poses.
    ///   - scene: What the items look like (see ``render(_:scene:)``).
    ///   - statusLine: The status line's text; default `nil`: ``statusLine(for:)-(FrameReport)``.
    public func lines(_ report: FrameReport, scene: TraceScene, statusLine: String? = nil) -> [String] {
        let status = showsStatusLine ? (statusLine ?? self.statusLine(for: report)) : ""
        return compose(scene: scene, poses: report.items, statusLine: status)
    }

    /// The default status line of a recorded frame: its time (s), frame number, items and
    /// resting items, e.g. `t 1.25 s  frame 75  items 12  resting 3`.
    ///
    /// - Parameter report: The frame to describe.
    public func statusLine(for report: FrameReport) -> String {
        let time = String(format: "%.2f", report.time)
        let resting = report.items.reduce(0) { $0 + ($1.isResting ? 1 : 0) }
        return "t \(time) s  frame \(report.index)  items \(report.items.count)  resting \(resting)"
    }

    // MARK: Drawing

    /// The height of a terminal cell over its width, sanitised.
    var effectiveCellAspect: Double {
        cellAspectRatio.isFinite && cellAspectRatio > 0 ? cellAspectRatio : 2
    }

    /// The picture and its status line: what every `lines` method returns.
    private func compose(scene: TraceScene, poses: [FrameReport.Item], statusLine: String) -> [String] {
        let columns = min(max(0, width), Self.maximumSide), rows = min(max(0, height), Self.maximumSide)
        let pictureRows = showsStatusLine && rows > 0 ? rows - 1 : rows
        var picture = TextCanvas(width: columns, height: pictureRows, mode: braille ? .braille : .plain)
        if pictureRows > 0 && columns > 0 {
            draw(scene, poses: poses, on: &picture)
        }
        var result = picture.lines()
        if showsStatusLine && rows > 0 {
            var status = TextCanvas(width: columns, height: 1)
            status.drawText(statusLine, atColumn: 0, row: 0)
            result += status.lines()
        }
        return result
    }

    /// Draws everything but the status line on `canvas`: the one drawing routine of live and
    /// recorded frames.
    private func draw(_ scene: TraceScene, poses: [FrameReport.Item], on canvas: inout TextCanvas) {
        let region = shownRegion(scene, poses: poses)
        let view = Viewport(region: region.rect, framed: region.isReferenceBounds, dotsAcross: canvas.dotWidth,
                            dotsDown: canvas.dotHeight, dotAspect: correctsAspectRatio ? dotAspect : nil)

        if let bounds = scene.referenceBounds {
            canvas.drawFrame(view.frame(around: bounds))
        }
        if showsBoundaries {
            for boundary in scene.boundaries {
                boundary.forEachSegment { a, b in
                    let p = view.mapLineEnd(a), q = view.mapLineEnd(b)
                    canvas.drawLine(from: p, to: q, character: slopeCharacter(from: p, to: q))
                }
            }
        }
        var markers: [(CGPoint, Character)] = []
        if showsAttachments {
            for attachment in scene.attachments {
                let ends = attachment.items.compactMap { ItemPlacement.point($0, poses: poses) }
                guard let first = ends.first else { continue }
                if let anchor = attachment.anchor {
                    let a = view.map(anchor)
                    canvas.drawLine(from: a, to: view.map(first), character: ".")
                    markers.append((a, "o"))
                } else if ends.count > 1 {
                    canvas.drawLine(from: view.map(first), to: view.map(ends[1]), character: ".")
                }
            }
            for point in scene.snapPoints {
                markers.append((view.map(point), "x"))
            }
        }
        for (index, pose) in poses.enumerated() {
            let parts = index < scene.items.count ? scene.items[index].parts : []
            if parts.isEmpty {
                let c = view.map(pose.center)
                canvas.plot(x: Double(c.x), y: Double(c.y), character: "*")
                continue
            }
            for part in parts {
                let mark = Self.fillCharacter(part.shape.collisionBoundsType, alternate: index % 2 == 1)
                let place = ItemPlacement(pose: pose, part: part)
                switch part.shape {
                case .ellipse(let size):
                    let axes = place.ellipseAxes(size)
                    let c = view.map(place.center)
                    let ax = CGPoint(x: Double(axes.x.x) * view.scaleX, y: Double(axes.x.y) * view.scaleY)
                    let ay = CGPoint(x: Double(axes.y.x) * view.scaleX, y: Double(axes.y.y) * view.scaleY)
                    canvas.fillEllipse(center: c, axisX: ax, axisY: ay, character: mark)
                case .rectangle, .path:
                    canvas.fillPolygon(place.outline(part.shape).map(view.map), character: mark)
                }
            }
        }
        for (point, mark) in markers {
            canvas.plot(x: Double(point.x), y: Double(point.y), character: mark)
        }
        for overlay in overlays {
            switch overlay {
            case .line(let from, let to, let character):
                let p = view.map(from), q = view.map(to)
                canvas.drawLine(from: p, to: q, character: character ?? slopeCharacter(from: p, to: q))
            case .point(let point, let character):
                let p = view.map(point)
                canvas.plot(x: Double(p.x), y: Double(p.y), character: character)
            }
        }
    }

    /// The height of a dot over its width: a cell's aspect, times 2/4 for braille dots.
    private var dotAspect: Double {
        braille ? effectiveCellAspect * 2 / 4 : effectiveCellAspect
    }

    /// The plain-mode fill character of an item's collision type: `#`, `@`, `%`, or, for every
    /// other item (`alternate`), `=`, `O`, `&`, so neighbours in a stack stay apart.
    static func fillCharacter(_ type: DynamicItemCollisionBoundsType, alternate: Bool = false) -> Character {
        switch type {
        case .rectangle: return alternate ? "=" : "#"
        case .ellipse: return alternate ? "O" : "@"
        case .path: return alternate ? "&" : "%"
        }
    }

    /// The plain-mode character of a line between two dot positions, following its slope on
    /// screen (y down): `-`, `|`, `\` (down to the right) or `/` (up to the right).
    func slopeCharacter(from p: CGPoint, to q: CGPoint) -> Character {
        let dx = Double(q.x - p.x)
        let dy = Double(q.y - p.y) * dotAspect
        if abs(dy) <= 0.4 * abs(dx) { return "-" }
        if abs(dx) <= 0.4 * abs(dy) { return "|" }
        return (dx > 0) == (dy > 0) ? "\\" : "/"
    }

    // MARK: What to show

    /// The region shown, in points, and whether it is the reference bounds (which get a frame
    /// and a one-dot margin for it).
    func shownRegion(_ scene: TraceScene, poses: [FrameReport.Item]) -> (rect: CGRect, isReferenceBounds: Bool) {
        if let rect = visibleRect?.standardized, Self.isUsable(rect) {
            return (rect, false)
        }
        if let bounds = scene.referenceBounds, Self.isUsable(bounds) {
            return (bounds, true)
        }
        return (Self.fittedRegion(scene, poses: poses), false)
    }

    static func isUsable(_ rect: CGRect) -> Bool {
        !rect.isNull && rect.origin.x.isFinite && rect.origin.y.isFinite && rect.width.isFinite
            && rect.height.isFinite && rect.width > 0 && rect.height > 0
    }

    /// The items' bounding box (with attachment anchors and snap points), padded by 5 % of its
    /// larger side plus 1 pt; the boundaries' box when there are no items; 100 × 100 pt at the
    /// origin when there is nothing at all.
    static func fittedRegion(_ scene: TraceScene, poses: [FrameReport.Item]) -> CGRect {
        var box = BoundingBox()
        ItemPlacement.addExtent(of: scene, poses: poses, to: &box)
        for attachment in scene.attachments {
            if let anchor = attachment.anchor { box.add(anchor) }
        }
        for point in scene.snapPoints { box.add(point) }
        if box.isEmpty {
            for boundary in scene.boundaries {
                for p in boundary.points { box.add(p) }
            }
        }
        guard var rect = box.rect else { return CGRect(x: 0, y: 0, width: 100, height: 100) }
        let side = max(rect.width, rect.height, 10)
        let pad = 0.05 * side + 1
        rect = rect.insetBy(dx: -pad, dy: -pad)
        // A line of items is given some thickness so it is not magnified without limit.
        if rect.width < side / 4 { rect = rect.insetBy(dx: -(side / 4 - rect.width) / 2, dy: 0) }
        if rect.height < side / 4 { rect = rect.insetBy(dx: 0, dy: -(side / 4 - rect.height) / 2) }
        return rect
    }
}

// MARK: - Helpers

/// The mapping from points to dots: the shown region, scaled and centred in the picture.
private struct Viewport {
    /// Dots per point across and down.
    var scaleX: Double, scaleY: Double
    /// The dot position of the region's top-left corner.
    var originX: Double, originY: Double
    var region: CGRect

    /// - Parameters:
    ///   - framed: Keep a one-dot margin around the region for a frame.
    ///   - dotAspect: The height over the width of a dot, to keep points square; nil stretches.
    init(region: CGRect, framed: Bool, dotsAcross: Int, dotsDown: Int, dotAspect: Double?) {
        self.region = region
        var margin = framed ? 1.0 : 0.0
        if Double(dotsAcross) - 2 * margin < 1 || Double(dotsDown) - 2 * margin < 1 { margin = 0 }
        let innerW = max(1, Double(dotsAcross) - 2 * margin)
        let innerH = max(1, Double(dotsDown) - 2 * margin)
        let w = Double(region.width), h = Double(region.height)
        var mappedW = innerW, mappedH = innerH
        if let aspect = dotAspect {
            // Dots across per point, the same on screen as `s / aspect` dots down per point.
            let s = min(innerW / w, innerH * aspect / h)
            mappedW = min(innerW, max(1, (w * s).rounded()))
            mappedH = min(innerH, max(1, (h * s / aspect).rounded()))
        }
        scaleX = mappedW / w
        scaleY = mappedH / h
        originX = margin + ((innerW - mappedW) / 2).rounded(.down)
        originY = margin + ((innerH - mappedH) / 2).rounded(.down)
    }

    /// The dot position of a point.
    func map(_ p: CGPoint) -> CGPoint {
        CGPoint(x: originX + (Double(p.x) - Double(region.minX)) * scaleX,
                y: originY + (Double(p.y) - Double(region.minY)) * scaleY)
    }

    /// The dot position of a boundary's end. A point on the region's left or top edge maps to
    /// the edge of the first dot inside; it is moved half a dot out, onto the frame, so a
    /// boundary along any edge of the reference bounds is drawn on the frame (as points on the
    /// right and bottom edges already are), not one dot inside.
    func mapLineEnd(_ p: CGPoint) -> CGPoint {
        var q = map(p)
        if abs(Double(q.x) - originX) < 1e-6 { q.x = originX - 0.5 }
        if abs(Double(q.y) - originY) < 1e-6 { q.y = originY - 0.5 }
        return q
    }

    /// The centres of the dots just outside `rect` (points): where its frame goes.
    func frame(around rect: CGRect) -> (minX: Double, minY: Double, maxX: Double, maxY: Double) {
        let a = map(CGPoint(x: rect.minX, y: rect.minY)), b = map(CGPoint(x: rect.maxX, y: rect.maxY))
        return (Double(a.x).rounded() - 0.5, Double(a.y).rounded() - 0.5,
                Double(b.x).rounded() + 0.5, Double(b.y).rounded() + 0.5)
    }
}

extension TextCanvas {
    /// Draws a rectangle's outline through the given dot centres: `-` along the top and bottom,
    /// `|` down the sides, `+` at the corners.
    fileprivate mutating func drawFrame(_ f: (minX: Double, minY: Double, maxX: Double, maxY: Double)) {
        let tl = CGPoint(x: f.minX, y: f.minY), tr = CGPoint(x: f.maxX, y: f.minY)
        let bl = CGPoint(x: f.minX, y: f.maxY), br = CGPoint(x: f.maxX, y: f.maxY)
        drawLine(from: tl, to: tr, character: "-")
        drawLine(from: bl, to: br, character: "-")
        drawLine(from: tl, to: bl, character: "|")
        drawLine(from: tr, to: br, character: "|")
        for corner in [tl, tr, bl, br] { plot(x: Double(corner.x), y: Double(corner.y), character: "+") }
    }
}

/// An axis-aligned box grown point by point (pt).
struct BoundingBox {
    var minX = Double.infinity, minY = Double.infinity
    var maxX = -Double.infinity, maxY = -Double.infinity

    var isEmpty: Bool { !(minX <= maxX && minY <= maxY) }

    mutating func add(_ p: CGPoint) {
        let x = Double(p.x), y = Double(p.y)
        guard x.isFinite, y.isFinite else { return }
        minX = min(minX, x); maxX = max(maxX, x)
        minY = min(minY, y); maxY = max(maxY, y)
    }

    var rect: CGRect? {
        isEmpty ? nil : CGRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }
}
