" Vim filetype plugin
" Language:	pyx (*.px)
" Comments, 'suffixesadd' and the rest are Python's.

if exists("b:did_ftplugin")
  finish
endif

runtime! ftplugin/python.vim
let b:did_ftplugin = 1
setlocal suffixesadd=.px
