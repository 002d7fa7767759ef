// What `import Dynamics` brings with it.
//
// UIKit code names `CGPoint`, `CGRect`, `CGSize`, `CGFloat`, `CGVector`, `TimeInterval` and
// `NSCopying` without importing anything beyond UIKit, so a port that deletes `UI` must find them
// through `import Dynamics` alone. They come from Foundation (and CoreGraphics on Apple
// platforms); where CoreGraphics is missing, this module supplies `CGVector` and
// `CGAffineTransform` itself (`CoreGraphicsShims.swift`).
@_exported import Foundation
#if canImport(CoreGraphics)
@_exported import CoreGraphics
#endif
