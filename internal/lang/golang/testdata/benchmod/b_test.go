package gb
import "testing"
func TestA(t *testing.T){ t.Run("x", func(t *testing.T){}) }
func BenchmarkB(b *testing.B){ for i:=0;i<b.N;i++{} }
func BenchmarkC(b *testing.B){ b.ReportAllocs(); b.Log("hi"); for i:=0;i<b.N;i++{} }
func BenchmarkD(b *testing.B){ b.Fatal("no") }
