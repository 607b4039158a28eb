" Vim syntax file
" Language:	pyx (*.px), a statically typed Python subset for CPUs and GPUs
" Builds on Vim's Python syntax: strings, comments, decorators, Python
" keywords and operators come from there; pyx adds its declarations, argument
" conventions, launch syntax, built-in types, DType members and GPU intrinsics.

if exists("b:current_syntax")
  finish
endif

runtime! syntax/python.vim
unlet! b:current_syntax

let s:cpo_save = &cpo
set cpo&vim

" Declarations.  python.vim's `def` is defined again so that every
" declaration keyword highlights the name after it the same way.
syn keyword pyxDefine		fn def nextgroup=pyxFunction skipwhite
syn keyword pyxDefine		struct trait nextgroup=pyxTypeName skipwhite
syn match   pyxFunction		"\h\w*" display contained
syn match   pyxTypeName		"\h\w*" display contained
syn keyword pyxDeclare		var
syn keyword pyxDeclare		comptime alias nextgroup=pyxConstName skipwhite
syn match   pyxConstName	"\h\w*\ze\s*[:=\[]" display contained
syn keyword pyxRaises		raises

" `mut`, `owned`, `ref` and `out` are conventions only in front of a name:
" `out` is also an ordinary parameter name (`out: Ptr[Float32]`).
syn match   pyxConvention	"\<\%(mut\|owned\|ref\|out\)\ze\s\+\h\w*\s*[:,)]"

" launch kernel[grid=..., block=...](args)
syn keyword pyxLaunch		launch nextgroup=pyxKernelName skipwhite
syn match   pyxKernelName	"\h\w*\%(\s*\.\s*\h\w*\)*\ze\s*\[" display contained
" Keys count only on a line that launches (`block=` is a plain keyword
" argument anywhere else).
syn match   pyxLaunchKey	"\%(\[\|,\)\%(\<launch\>.*\)\@200<=\s*\zs\%(grid\|block\|shared_bytes\|stream\|cluster\)\ze\s*=[^=]"

syn keyword pyxConstant		True False None
syn keyword pyxSelf		self

syn keyword pyxType		Bool Int Int8 Int16 Int32 Int64 UInt UInt8 UInt16 UInt32 UInt64
syn keyword pyxType		Float16 BFloat16 Float32 Float64 SIMD Scalar DType Ptr UnsafePointer
syn keyword pyxType		List String StringLiteral Dict Optional Span Buffer DeviceBuffer
syn keyword pyxType		AnyType Copyable Movable EqualityComparable Comparable Hashable KeyElement Sized Stringable
syn keyword pyxType		Tuple PythonObject Python Self NoneType

syn keyword pyxBuiltin		print range prange len abs min max simd_width_of parallel_for normalize_index hash constrained external_call
syn keyword pyxBuiltin		parallelize vectorize isinstance rebind sizeof bitcast

" int(x) converts, `x: int` annotates: the same word is a builtin or a type.
" That takes two matches, and a keyword always beats a match, so python.vim's
" builtin keywords are defined again without int, float, bool and str.
silent! syn clear pythonBuiltin
if !exists("python_no_builtin_highlight")
  syn keyword pythonBuiltin	NotImplemented Ellipsis __debug__
  syn keyword pythonBuiltin	all any ascii bin breakpoint bytearray bytes callable chr
  syn keyword pythonBuiltin	classmethod compile complex delattr dict dir divmod
  syn keyword pythonBuiltin	enumerate eval exec filter format frozenset getattr
  syn keyword pythonBuiltin	globals hasattr help hex id input issubclass iter
  syn keyword pythonBuiltin	list locals map memoryview next object oct open ord pow
  syn keyword pythonBuiltin	property repr reversed round set setattr slice sorted
  syn keyword pythonBuiltin	staticmethod sum super tuple type vars zip __import__
endif
syn match   pyxType		"\<\%(int\|float\|bool\|str\)\>"
syn match   pyxBuiltin		"\<\%(int\|float\|bool\|str\)\ze\s*("

" python.vim reads an indented `@name` after a line that ends in a name or a
" bracket as a matrix multiplication continued over lines; in pyx that is
" nearly always a nested decorator (`@parameter fn body(...)`), so only the
" one-line and backslash-continued forms stay.
syn clear pythonMatrixMultiply
syn match   pythonMatrixMultiply
      \ "\%(\w\|[])]\)\s*@"
      \ contains=ALLBUT,pythonDecoratorName,pythonDecorator,pythonFunction,pythonDoctestValue,pyxFunction,pyxTypeName,pyxConstName,pyxKernelName
      \ transparent
syn match   pythonMatrixMultiply
      \ "[^\\]\\\s*\n\%(\s*\.\.\.\s\)\=\s\+@"
      \ contains=ALLBUT,pythonDecoratorName,pythonDecorator,pythonFunction,pythonDoctestValue,pyxFunction,pyxTypeName,pyxConstName,pyxKernelName
      \ transparent

syn keyword pyxIntrinsic	thread_idx block_idx block_dim grid_dim global_idx lane_id
syn keyword pyxIntrinsic	barrier shared_array atomic_add atomic_sub atomic_max atomic_min
syn keyword pyxIntrinsic	atomic_cas atomic_exch shuffle_down shuffle_up shuffle_xor
syn keyword pyxIntrinsic	shuffle_idx warp_sum warp_max warp_min ballot syncwarp WARP_SIZE

" Attributes are never keywords or builtins: x.min(), self.barrier().
syn clear pythonAttribute
syn match   pythonAttribute	/\.\h\w*/hs=s+1
      \ contains=ALLBUT,pythonBuiltin,pythonFunction,pythonAsync,pyxType,pyxBuiltin,pyxIntrinsic,pyxSelf,pyxConstant,pyxDefine,pyxDeclare,pyxRaises,pyxLaunch,pyxConvention,pyxFunction,pyxTypeName,pyxConstName,pyxKernelName,pyxLaunchKey,pyxDTypeMember
      \ transparent

" DType.float32: starts at the dot, like pythonAttribute, and is defined
" after it so it wins there.
syn match   pyxDTypeMember	"\%(\<DType\s*\)\@<=\.\s*\%(bool\|u\=int\%(8\|16\|32\|64\)\|b\=float\%(16\|32\|64\)\|float8_e4m3fn\%(uz\)\=\|float8_e5m2\%(fnuz\)\=\|index\|invalid\)\>"hs=s+1 contains=NONE

" Numbers with underscores in every base (older python.vim lacks them).
syn match   pyxNumber	"\<0[xX]\%(_\=\x\)\+\>"
syn match   pyxNumber	"\<0[oO]\%(_\=\o\)\+\>"
syn match   pyxNumber	"\<0[bB]\%(_\=[01]\)\+\>"
syn match   pyxNumber	"\<\d\%(_\=\d\)*\>"
syn match   pyxNumber	"\<\d\%(_\=\d\)*[eE][+-]\=\d\%(_\=\d\)*\>"
syn match   pyxNumber	"\<\d\%(_\=\d\)*\.\%(\d\%(_\=\d\)*\)\=\%([eE][+-]\=\d\%(_\=\d\)*\)\=\%(\W\|$\)\@="
syn match   pyxNumber	"\%(^\|\W\)\@1<=\%(\d\%(_\=\d\)*\)\=\.\d\%(_\=\d\)*\%([eE][+-]\=\d\%(_\=\d\)*\)\=\>"

" Bytes literals (older python.vim only knows the u and r prefixes).
syn region  pythonString matchgroup=pythonQuotes
      \ start=+\<[bB]\z(['"]\)+ end="\z1" skip="\\\\\|\\\z1"
      \ contains=pythonEscape,@Spell
syn region  pythonString matchgroup=pythonTripleQuotes
      \ start=+\<[bB]\z('''\|"""\)+ end="\z1" keepend
      \ contains=pythonEscape,@Spell
syn region  pythonRawString matchgroup=pythonQuotes
      \ start=+\<\%([bB][rR]\|[rR][bB]\)\z(['"]\)+ end="\z1" skip="\\\\\|\\\z1"
      \ contains=@Spell
syn region  pythonRawString matchgroup=pythonTripleQuotes
      \ start=+\<\%([bB][rR]\|[rR][bB]\)\z('''\|"""\)+ end="\z1" keepend
      \ contains=@Spell

" f-strings: the braces hold code.
syn region  pyxFString matchgroup=pythonQuotes
      \ start=+\<\%([rR][fF]\|[fF][rR]\=\)\z(['"]\)+ end="\z1" skip="\\\\\|\\\z1"
      \ contains=pythonEscape,pyxFStringBraces,pyxFStringField,@Spell
syn region  pyxFString matchgroup=pythonTripleQuotes
      \ start=+\<\%([rR][fF]\|[fF][rR]\=\)\z('''\|"""\)+ end="\z1" keepend
      \ contains=pythonEscape,pyxFStringBraces,pyxFStringField,@Spell
syn region  pyxFStringField matchgroup=pyxFStringDelimiter start="{" end="}" contained
      \ contains=ALLBUT,pythonDecoratorName,pythonDecorator,pythonFunction,pythonDoctestValue,pyxFunction,pyxTypeName,pyxConstName,pyxKernelName,pyxFStringBraces,pyxFStringField,pythonTodo,@Spell
" After the field region, so that `{{` is an escaped brace, not a field.
syn match   pyxFStringBraces	"{{\|}}" contained

hi def link pyxDefine		Statement
hi def link pyxFunction		Function
hi def link pyxTypeName		Structure
hi def link pyxDeclare		StorageClass
hi def link pyxConstName	Constant
hi def link pyxRaises		Exception
hi def link pyxConvention	StorageClass
hi def link pyxLaunch		Statement
hi def link pyxKernelName	Function
hi def link pyxLaunchKey	Identifier
hi def link pyxConstant		Constant
hi def link pyxSelf		Identifier
hi def link pyxType		Type
hi def link pyxBuiltin		Function
hi def link pyxIntrinsic	Special
hi def link pyxDTypeMember	Constant
hi def link pyxNumber		Number
hi def link pyxFString		String
hi def link pyxFStringBraces	SpecialChar
hi def link pyxFStringDelimiter	Special

let b:current_syntax = "pyx"

let &cpo = s:cpo_save
unlet s:cpo_save
