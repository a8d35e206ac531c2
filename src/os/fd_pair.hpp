// FdPair: two descriptors closed together, in one system call when they are neighbours.
#pragma once

namespace rdmi {

/// Owns a file's O_PATH descriptor and the descriptor it was reopened as for reading (either
/// may be -1). Every file read below a --root costs both (the O_PATH check that keeps device
/// nodes and FIFOs from ever being opened), and the two nearly always hold neighbouring
/// numbers (each open takes the lowest free one): closed by one close_range(2) then, instead of
/// two close(2).
class FdPair {
  public:
    FdPair(int checked, int opened) : checked_(checked), opened_(opened) {}
    FdPair(const FdPair&) = delete;
    FdPair& operator=(const FdPair&) = delete;
    ~FdPair();

    /// The descriptor opened for reading, still owned.
    [[nodiscard]] int opened() const { return opened_; }

  private:
    int checked_;
    int opened_;
};

}  // namespace rdmi
