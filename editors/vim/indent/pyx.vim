" Vim indent file
" Language:	pyx (*.px)
" Indentation is Python's: a block opens after a line that ends with ':'.

if exists("b:did_indent")
  finish
endif

runtime! indent/python.vim
let b:did_indent = 1
